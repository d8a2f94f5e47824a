"""vf-bridge: vf environments (TypeScript, served by ``vf env serve``) for Python RL engines.

- ``vf_bridge.protocol``: a client of verifiers' env-server protocols (pyzmq + msgpack only).
- ``vf_bridge.facade``: a trainer's model client on a loopback URL, for the server to call (stdlib).
- ``VfTaskset`` (``vf_bridge.taskset``, extra ``v1``): a verifiers v1 ``Taskset`` whose tasks come
  from a vf server. Its id is this package's: prime-rl's ``[...env.taskset] id = "vf-bridge"``;
  verifiers' loader imports ``vf_bridge`` and takes the one Taskset subclass ``__all__`` names.
- ``load_environment`` (``vf_bridge.environment``, extra ``legacy``): a verifiers legacy
  ``Environment`` whose rollouts run in a vf server (rLLM, tinker-cookbook, SkyRL):
  ``vf.load_environment("vf-bridge", env="reverse-text")``.

The last two import verifiers when first used, so the protocol client works without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["VfTaskset", "load_environment"]

if TYPE_CHECKING:
    from vf_bridge.environment import VfServedEnvironment
    from vf_bridge.taskset import VfTaskset


def load_environment(env: str = "", address: str | None = None, **env_args: Any) -> VfServedEnvironment:
    """A verifiers legacy Environment whose rollouts run in a vf env server: the one at ``address``,
    or, without one, a ``vf env serve env -a env_args`` started for it and stopped at its teardown."""
    from vf_bridge.environment import load_environment as load

    return load(env=env, address=address, **env_args)


def __getattr__(name: str) -> Any:
    if name == "VfTaskset":
        from vf_bridge.taskset import VfTaskset

        return VfTaskset
    raise AttributeError(f"module 'vf_bridge' has no attribute {name!r}")
