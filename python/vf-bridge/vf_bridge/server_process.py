"""Starts ``vf env serve`` as a child process on a free loopback port (stdlib only), for a bridge
asked for an environment without an address. The ``vf`` command is ``$VF_BIN`` if set (a path to
vf.js, run with node), else ``vf`` on PATH, else ``npx vf``."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess


def start_vf_server(env: str, env_args: dict | None = None, workers: str = "1") -> tuple[str, subprocess.Popen]:
    """Starts the server; returns its address (the first line it prints) and the process."""
    if os.environ.get("VF_BIN"):
        command = ["node", os.environ["VF_BIN"]]
    elif shutil.which("vf"):
        command = ["vf"]
    else:
        command = ["npx", "vf"]
    args = [*command, "env", "serve", env, "--address", "tcp://127.0.0.1:0", "-w", workers,
            "-a", json.dumps(env_args or {})]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    atexit.register(process.terminate)
    address = (process.stdout.readline() if process.stdout else "").strip()
    if not address.startswith(("tcp://", "ipc://")):
        process.terminate()
        raise RuntimeError(f"`{' '.join(args)}` did not print an address (exit {process.poll()}): see its output above")
    return address, process
