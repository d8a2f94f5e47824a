"""Starts and stops ``vf env serve`` as a child process on a free loopback port (stdlib only), for a
bridge asked for an environment without an address.

vf is a Node.js program (Node 20 or newer). The command is found, in this order:

1. ``$VF_BIN``: a path to ``vf`` (an installed ``node_modules/.bin/vf``) or to ``vf.js`` (run with
   ``node``; e.g. ``packages/cli/bin/vf.js`` of a vf checkout);
2. ``vf`` on ``PATH`` (``npm install -g @vf-rl/cli``);
3. ``node_modules/.bin/vf`` in the working folder or a folder above it (``npm install -D @vf-rl/cli``
   in the project the trainer runs from).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

__all__ = ["VfNotFoundError", "VfServer", "find_vf", "start_vf_server"]


class VfNotFoundError(RuntimeError):
    """No ``vf`` command could be found, or Node.js is missing."""


def find_vf(cwd: str | os.PathLike | None = None) -> list[str]:
    """The argv prefix that runs vf (see the module comment for the search order)."""
    configured = os.environ.get("VF_BIN")
    if configured:
        path = Path(configured).expanduser()
        if not path.exists():
            raise VfNotFoundError(f"VF_BIN is {configured}, which does not exist: point it at vf or vf.js")
        if path.suffix in (".js", ".mjs"):
            return [_node(), str(path)]
        return [str(path)]
    on_path = shutil.which("vf")
    if on_path:
        return [on_path]
    folder = Path(cwd or os.getcwd()).resolve()
    for candidate in (folder, *folder.parents):
        local = candidate / "node_modules" / ".bin" / "vf"
        if local.exists():
            return [str(local)]
    raise VfNotFoundError(
        "vf was not found: install it in your project (npm install -D @vf-rl/cli; it needs Node.js 20+), "
        "put it on PATH, or set VF_BIN to its path (vf, or packages/cli/bin/vf.js of a vf checkout)"
    )


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise VfNotFoundError("vf runs on Node.js, and `node` is not on PATH: install Node.js 20 or newer")
    return node


class VfServer:
    """A ``vf env serve`` this process started: its ``address`` until ``stop()`` (also at exit)."""

    def __init__(self, address: str, process: subprocess.Popen) -> None:
        self.address = address
        self.process = process

    def stop(self, timeout: float = 30.0) -> None:
        """Asks the server to drain (SIGTERM: accepted runs finish), then kills it after ``timeout``."""
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_vf_server(env: str, env_args: dict | None = None, workers: str = "1",
                    startup_timeout: float = 300.0) -> VfServer:
    """Starts ``vf env serve env`` on a free loopback port; returns once it printed its address.
    Its log (stderr) goes to this process's stderr."""
    args = [*find_vf(), "env", "serve", env, "--address", "tcp://127.0.0.1:0", "-w", workers,
            "-a", json.dumps(env_args or {})]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    server = VfServer("", process)
    atexit.register(server.stop, 5.0)
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(process.stdout.readline() if process.stdout else ""),
                              daemon=True)
    reader.start()
    reader.join(startup_timeout)
    address = (line[0] if line else "").strip()
    if not address.startswith(("tcp://", "ipc://")):
        server.stop(5.0)
        waited = "" if line else f" in {startup_timeout:.0f} s"
        raise RuntimeError(f"`{' '.join(args)}` printed no address{waited} (exit {process.poll()}): "
                           "see its messages above")
    server.address = address
    return server
