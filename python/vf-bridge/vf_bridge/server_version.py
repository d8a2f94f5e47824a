"""Which vf serves an address, and whether this bridge speaks to it.

vf's env server says its version in the reply to vf's ``stats`` method (``vf_version``). The bridge
and vf are released together: a bridge works with the vf releases of its own major and minor
version (0.1.x with 0.1.x). verifiers' own env servers have no ``stats`` method and are told apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from vf_bridge import __version__
from vf_bridge.protocol import blocking_request

__all__ = ["IncompatibleServerError", "ServerInfo", "check_server", "server_info"]


class IncompatibleServerError(RuntimeError):
    """The server at an address is not a vf env server this bridge works with."""


@dataclass(frozen=True)
class ServerInfo:
    address: str
    vf_version: str | None
    """The vf release serving the address; None for a vf too old to say."""
    workers: int


def server_info(address: str, timeout: float = 600.0) -> ServerInfo:
    """Asks the server at ``address`` who it is; waits up to ``timeout`` s for it to answer."""
    reply = blocking_request(address, "stats", {}, timeout)
    if not reply.get("success"):
        raise IncompatibleServerError(
            f"the env server at {address} is not vf's: it answered `stats` with {reply.get('error')!r}. "
            "vf-bridge takes its tasks from `vf env serve`; start one there (see vf-bridge's README)"
        )
    return ServerInfo(address, reply.get("vf_version"), len(reply.get("workers") or []))


def check_server(address: str, timeout: float = 600.0) -> ServerInfo:
    """``server_info``, refusing a vf whose major.minor differs from this bridge's."""
    info = server_info(address, timeout)
    if info.vf_version is None:
        raise IncompatibleServerError(
            f"the vf serving {address} is older than vf-bridge {__version__} (it does not say its version): "
            f"use vf {_series(__version__)}.x"
        )
    if _series(info.vf_version) != _series(__version__):
        raise IncompatibleServerError(
            f"{address} is served by vf {info.vf_version}, and vf-bridge {__version__} works with vf "
            f"{_series(__version__)}.x: install vf-bridge {_series(info.vf_version)}.x, or serve with vf "
            f"{_series(__version__)}.x"
        )
    return info


def _series(version: str) -> str:
    return ".".join(version.split(".")[:2])
