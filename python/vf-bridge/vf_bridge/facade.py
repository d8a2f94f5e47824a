"""Serves a trainer's model client on a loopback OpenAI-compatible HTTP endpoint for as long as a
rollout runs, so a vf env server, which calls models by URL, can call it.

rLLM, tinker-cookbook and SkyRL hand verifiers a client backed by their sampler (an object with an
async ``chat.completions.create`` that returns a ChatCompletion with vLLM's ``prompt_token_ids``
and ``choices[i].token_ids`` attached); verifiers' own ``run_rollout``/``evaluate`` hand it one of
verifiers' ``Client`` wrappers. This puts any of them (``vf_bridge.chat_call``) behind
``POST /v1/chat/completions`` and ``GET /v1/models`` on 127.0.0.1, with stdlib asyncio only. The
answer goes back as JSON with its token fields, so the episode records token ids and logprobs.

    async with serve_client(shim, model="policy") as base_url:
        episode = await client.run(task, {"base_url": base_url, "api_key_var": ""}, "policy")
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from vf_bridge.chat_call import UnsupportedClientError, complete

__all__ = ["serve_client"]

_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error"}


@contextlib.asynccontextmanager
async def serve_client(client: Any, model: str = "model", host: str = "127.0.0.1") -> AsyncIterator[str]:
    """Serves ``client`` until the block ends; yields its base URL (``http://127.0.0.1:PORT/v1``)."""

    connections: set[asyncio.Task] = set()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            connections.add(task)
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
        except asyncio.CancelledError:
            # The block ended with this keep-alive connection open: the end of its service, not a
            # failure (asyncio's stream callback would report a cancelled handler as one).
            pass
        finally:
            connections.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    server = await asyncio.start_server(handle, host, 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://{host}:{port}/v1"
    finally:
        server.close()
        for task in list(connections):
            task.cancel()
        await asyncio.gather(*connections, return_exceptions=True)
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
    if request.get("stream"):
        return 400, _error("streaming is not served: send stream=false", "invalid_request_error")
    try:
        return 200, await complete(client, request)
    except UnsupportedClientError as e:
        return 400, _error(str(e), "invalid_request_error")
    except Exception as e:  # the client's failure is the answer, not a crash of the endpoint
        return _failure(e)


def _failure(error: BaseException) -> tuple[int, dict]:
    """The HTTP answer for a client's failure, in the shape vLLM and OpenAI give it, so the vf server
    tells its kinds apart as it would theirs: an over-long prompt ends the rollout (a 400 naming the
    context length), a rejected key or unknown model stops the run (their status), an overloaded
    endpoint is retried (5xx). verifiers wraps a provider's error in its own (``ModelError``), so the
    chain is searched for the status and the message."""
    chain = []
    while error is not None and error not in chain:
        chain.append(error)
        error = error.__cause__ or error.__context__
    names = {type(e).__name__ for e in chain}
    message = next((str(e) for e in chain if str(e)), "")
    described = f"{type(chain[0]).__name__}: {message}" if message else type(chain[0]).__name__
    if "OverlongPromptError" in names:
        return 400, _error(f"maximum context length exceeded: {described}", "invalid_request_error")
    status = next((e.status_code for e in chain if isinstance(getattr(e, "status_code", None), int)), 500)
    return (status if 400 <= status < 600 else 500), _error(described, "server_error")


def _error(message: str, kind: str) -> dict:
    return {"error": {"message": message, "type": kind}}
