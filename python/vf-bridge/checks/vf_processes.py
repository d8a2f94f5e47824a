"""The vf programs the check runs against, each a child process of its own: ``vf env serve`` (through
vf-bridge's own starter; a taskset served with a harness directly), ``vf serve`` (the built-in model,
real token ids), vf's scripted model server answering like a perfect model of an environment (tool
calls included, token ids of its byte tokenizer), and vf's scripted coding model for agents."""

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

    def agent_server(self, taskset: str, harness: str, runtime: str) -> str:
        """``vf env serve TASKSET --harness HARNESS --runtime RUNTIME`` on a free port; its address."""
        return self._line_of([*_vf(), "env", "serve", taskset, "--harness", harness, "--runtime", runtime,
                              "--address", "tcp://127.0.0.1:0"], "tcp://")

    def coding_model(self) -> str:
        """vf's scripted coding model (packages/env-server/test/coding-model-main.ts): fixes js-slugify
        with a bash call, then answers "Done."; token ids on every answer. Its base URL."""
        main = REPO / "packages" / "env-server" / "test" / "coding-model-main.ts"
        return self._url_of(["node", "--conditions=vf-source", "--import", "tsx", str(main)])

    def builtin_model(self) -> str:
        """``vf serve`` on a free port; its base URL (ending in /v1)."""
        return self._url_of([*_vf(), "serve", "--port", "0"])

    def reference_model(self, env: str) -> str:
        """vf's scripted server as a perfect model of ``env``, with token ids; its base URL."""
        main = REPO / "packages" / "core" / "src" / "testing" / "scripted-server-main.ts"
        return self._url_of(["node", "--conditions=vf-source", "--import", "tsx", str(main),
                             "--reply", f"reference:{env}", "--tokens"])

    def _url_of(self, argv: list[str]) -> str:
        return self._line_of(argv, "http")

    def _line_of(self, argv: list[str], prefix: str) -> str:
        """Starts ``argv`` and returns the first line it prints starting with ``prefix``."""
        child = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, text=True)
        self.children.append(child)
        found: list[str] = []

        def read() -> None:
            for line in child.stdout or []:
                if line.startswith(prefix):
                    found.append(line.strip())
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(120)
        if not found:
            raise RuntimeError(f"`{' '.join(argv)}` printed no {prefix} line (exit {child.poll()})")
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
