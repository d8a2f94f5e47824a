"""The vf programs the check runs against, each a child process of its own: ``vf env serve`` (through
vf-bridge's own starter), ``vf serve`` (the built-in model, real token ids) and vf's scripted model
server answering like a perfect model of an environment (tool calls included, token ids of its
byte tokenizer)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

from vf_bridge.server_process import VfServer, find_vf, start_vf_server

REPO = Path(__file__).resolve().parents[3]


@dataclass
class Processes:
    """Everything started, stopped together at the end."""

    children: list[subprocess.Popen] = field(default_factory=list)
    servers: list[VfServer] = field(default_factory=list)

    def env_server(self, env: str) -> str:
        server = start_vf_server(env)
        self.servers.append(server)
        return server.address

    def builtin_model(self) -> str:
        """``vf serve`` on a free port; its base URL (ending in /v1)."""
        return self._url_of([*_vf(), "serve", "--port", "0"])

    def reference_model(self, env: str) -> str:
        """vf's scripted server as a perfect model of ``env``, with token ids; its base URL."""
        main = REPO / "packages" / "core" / "src" / "testing" / "scripted-server-main.ts"
        return self._url_of(["node", "--conditions=vf-source", "--import", "tsx", str(main),
                             "--reply", f"reference:{env}", "--tokens"])

    def _url_of(self, argv: list[str]) -> str:
        child = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, text=True)
        self.children.append(child)
        found: list[str] = []

        def read() -> None:
            for line in child.stdout or []:
                if line.startswith("http"):
                    found.append(line.strip())
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(120)
        if not found:
            raise RuntimeError(f"`{' '.join(argv)}` printed no URL (exit {child.poll()})")
        return found[0]

    def stop(self) -> None:
        for server in self.servers:
            server.stop(10)
        for child in self.children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
                try:
                    child.wait(10)
                except subprocess.TimeoutExpired:
                    child.kill()


def _vf() -> list[str]:
    return find_vf()
