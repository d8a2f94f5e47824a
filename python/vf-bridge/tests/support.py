"""What the Python tests share: the addresses the vitest harness started (environment variables)."""

import os


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests through packages/env-server/test/python-client.test.ts")
    return value


def endpoint(kind: str = "train") -> dict:
    """The v1 client config of the scripted model server."""
    return {"type": kind, "base_url": env("VF_MODEL_URL"), "api_key_var": "", "headers": {}}


def v0_client_config() -> dict:
    return {"client_type": "openai_chat_completions", "api_base_url": env("VF_MODEL_URL"), "api_key_var": ""}
