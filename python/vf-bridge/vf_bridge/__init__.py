"""vf-bridge: vf environments (TypeScript, served by ``vf env serve``) for Python RL engines.

- ``vf_bridge.protocol``: a client of verifiers' env-server protocols (pyzmq + msgpack only).
- ``vf_bridge.facade``: serve an in-process AsyncOpenAI-like client on a loopback URL (stdlib only).
- ``vf_bridge.taskset``: a verifiers v1 ``Taskset`` whose tasks come from a vf server (prime-rl).
- ``vf_bridge.environment``: ``load_environment(env=..., address=...)``, a verifiers v0
  ``Environment`` whose rollouts run in a vf server (rLLM, tinker-cookbook, SkyRL).

The last two import verifiers; import them by module so the first two work without it.
"""

__all__ = ["load_environment"]


def load_environment(env: str = "", address: str = "tcp://127.0.0.1:5000", **env_args):
    """A verifiers v0 Environment whose rollouts run in the vf env server at ``address``."""
    from vf_bridge.environment import load_environment as load

    return load(env=env, address=address, **env_args)
