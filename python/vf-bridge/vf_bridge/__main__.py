"""``python -m vf_bridge info ADDRESS``: which vf serves an address, and whether this bridge works
with it (exit 0), or why not (exit 1, one line)."""

from __future__ import annotations

import argparse
import sys

from vf_bridge import __version__
from vf_bridge.server_version import IncompatibleServerError, check_server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vf_bridge", description="vf-bridge's checks of a vf env server")
    commands = parser.add_subparsers(dest="command", required=True)
    info = commands.add_parser("info", help="which vf serves ADDRESS, and whether this bridge works with it")
    info.add_argument("address", help="the env server, e.g. tcp://127.0.0.1:5000")
    info.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for an answer (default 10)")
    args = parser.parse_args(argv)
    try:
        server = check_server(args.address, args.timeout)
    except (IncompatibleServerError, TimeoutError) as error:
        print(f"vf-bridge {__version__}: {error}", file=sys.stderr)
        return 1
    workers = f"{server.workers} worker{'s' if server.workers != 1 else ''}"
    print(f"{server.address}: vf {server.vf_version} ({workers}), vf-bridge {__version__} works with it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
