"""Serves an in-process, AsyncOpenAI-like client object on a loopback OpenAI-compatible HTTP
endpoint for as long as a rollout runs, so a vf env server can call it by URL.

rLLM's VerifiersWorkflow and tinker-cookbook's verifiers recipe hand verifiers a client object
backed by their sampler (``chat.completions.create(model=..., messages=..., **sampling)`` returning
a ChatCompletion, with vLLM's ``prompt_token_ids`` and ``choices[i].token_ids`` attached). The vf
server calls models over HTTP, so this puts that object behind ``POST /v1/chat/completions``
(and ``GET /v1/models``) on 127.0.0.1 with stdlib asyncio only. The response object is sent back
as JSON with its token fields, so the episode records token ids and logprobs.

    async with serve_client(shim, model="policy") as base_url:
        episode = await client.run(task, {"base_url": base_url, "api_key_var": ""}, "policy")
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

__all__ = ["serve_client", "to_jsonable"]

_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error"}


@contextlib.asynccontextmanager
async def serve_client(client: Any, model: str = "model", host: str = "127.0.0.1") -> AsyncIterator[str]:
    """Serves ``client`` until the block ends; yields its base URL (``http://127.0.0.1:PORT/v1``)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await _read_request(reader)
                if request is None:
                    break
                method, path, body = request
                status, payload = await _answer(client, model, method, path, body)
                data = json.dumps(payload).encode()
                head = (
                    f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
                    "Content-Type: application/json\r\n"
                    f"Content-Length: {len(data)}\r\n"
                    "Connection: keep-alive\r\n\r\n"
                )
                writer.write(head.encode() + data)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    server = await asyncio.start_server(handle, host, 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://{host}:{port}/v1"
    finally:
        server.close()
        await server.wait_closed()


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, str, bytes] | None:
    line = await reader.readline()
    if not line:
        return None
    method, path, _ = line.decode("latin-1").split(" ", 2)
    length = 0
    while True:
        header = await reader.readline()
        if header in (b"\r\n", b"\n", b""):
            break
        name, _, value = header.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = await reader.readexactly(length) if length else b""
    return method, path.split("?", 1)[0], body


async def _answer(client: Any, model: str, method: str, path: str, body: bytes) -> tuple[int, Any]:
    if method == "GET" and path.rstrip("/").endswith("/models"):
        return 200, {"object": "list", "data": [{"id": model, "object": "model", "created": 0, "owned_by": "vf-bridge"}]}
    if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
        return 404, _error(f"no route {method} {path}: this endpoint serves POST /v1/chat/completions", "not_found")
    try:
        request = json.loads(body or b"{}")
    except json.JSONDecodeError as e:
        return 400, _error(f"the request body is not JSON: {e}", "invalid_request_error")
    if request.pop("stream", False):
        return 400, _error("streaming is not served: send stream=false", "invalid_request_error")
    try:
        response = await client.chat.completions.create(**request)
    except Exception as e:  # the client's failure is the answer, not a crash of the endpoint
        return 500, _error(f"{type(e).__name__}: {e}", "server_error")
    return 200, completion_json(response)


def completion_json(response: Any) -> dict:
    """A ChatCompletion (pydantic, dict or plain object) as JSON, vLLM's token fields kept."""
    data = to_jsonable(response)
    prompt_ids = getattr(response, "prompt_token_ids", None)
    if prompt_ids is not None:
        data["prompt_token_ids"] = list(prompt_ids)
    for i, choice in enumerate(getattr(response, "choices", None) or []):
        token_ids = getattr(choice, "token_ids", None)
        if token_ids is not None and i < len(data.get("choices", [])):
            data["choices"][i]["token_ids"] = list(token_ids)
    return data


def to_jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return to_jsonable(dump())
    if hasattr(value, "__dict__"):
        return {k: to_jsonable(v) for k, v in vars(value).items() if not k.startswith("_")}
    return str(value)


def _error(message: str, kind: str) -> dict:
    return {"error": {"message": message, "type": kind}}
