"""A client of verifiers' ZeroMQ environment-server protocols, v1 and v0, needing only pyzmq and
msgpack. It speaks to ``vf env serve`` (and to verifiers' own servers).

v1 frames: the DEALER sends ``[request_id, method, msgpack(body)]`` and gets ``[request_id,
msgpack(reply)]`` back in any order; v0 frames: ``[request_id, msgpack(body)]``, an empty payload
cancels that request id, ``b"ping"`` probes health. Every reply holds ``success`` and ``error``.

Replies are matched to requests by id by one receive task, so any number of requests can be in
flight. Cancelling the awaiting task of a run sends the server a cancel (fire and forget).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from typing import Any

import msgpack
import zmq
import zmq.asyncio

__all__ = ["EnvServerClient", "EnvServerError", "blocking_request", "fetch_tasks", "pack", "unpack"]


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False)


class EnvServerError(RuntimeError):
    """The server answered ``success: false``; the message is its ``error`` text."""


class EnvServerClient:
    """One DEALER connection to an env server, for use inside one asyncio event loop."""

    def __init__(self, address: str = "tcp://127.0.0.1:5000") -> None:
        self.address = address
        self._ctx = zmq.asyncio.Context()
        self._socket = self._ctx.socket(zmq.DEALER)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.connect(address)
        self._waiting: dict[str, asyncio.Future[bytes]] = {}
        self._receiver: asyncio.Task | None = None
        self._background: set[asyncio.Task] = set()

    # -- v1 ---------------------------------------------------------------------------------

    async def health(self, timeout: float = 2.0) -> bool:
        try:
            reply = await self.request("health", {}, timeout=timeout)
        except asyncio.TimeoutError:
            return False
        return bool(reply.get("success"))

    async def wait_for_startup(self, timeout: float = 120.0, interval: float = 0.25) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if await self.health(timeout=min(2.0, max(interval, 0.5))):
                return
            await asyncio.sleep(interval)
        raise TimeoutError(f"env server at {self.address} did not become healthy in {timeout}s")

    async def tasks(self, split: str = "train", num_examples: int = -1) -> list[dict]:
        reply = await self.checked("tasks", {"split": split, "num_examples": num_examples})
        return reply["tasks"]

    async def run(self, task_data: dict, client: dict, model: str, sampling: dict | None = None) -> dict:
        """One v1 run; returns the episode (a dict in verifiers' ``Episode`` shape)."""
        body = {"task_data": task_data, "client": client, "model": model, "sampling": sampling or {}}
        reply = await self.checked("run", body, cancel_on_abort=True)
        return reply["episode"]

    async def cancel(self, request_id: str) -> bool:
        reply = await self.checked("cancel", {"request_id": request_id})
        return bool(reply["cancelled"])

    async def stats(self) -> dict:
        """vf's ``stats`` method: the workers (index, pid, ready, active), accepted and queued runs,
        replies held for clients that are not reading, and the server's limits."""
        return await self.checked("stats", {})

    # -- v0 ---------------------------------------------------------------------------------

    async def ping(self, timeout: float = 2.0) -> bool:
        try:
            reply = await self.request_v0(b"ping", timeout=timeout)
        except asyncio.TimeoutError:
            return False
        return bool(reply.get("success"))

    async def run_rollout(self, input: dict, client_config: dict, model: str, sampling_args: dict | None = None,
                          max_retries: int = 0, state_columns: list[str] | None = None) -> dict:
        body = {"request_type": "run_rollout", "input": input, "client_config": client_config, "model": model,
                "sampling_args": sampling_args or {}, "max_retries": max_retries, "state_columns": state_columns}
        reply = await self.checked_v0(pack(body))
        return reply["output"]

    async def run_group(self, group_inputs: list[dict], client_config: dict, model: str,
                        sampling_args: dict | None = None, max_retries: int = 0,
                        state_columns: list[str] | None = None) -> list[dict]:
        body = {"request_type": "run_group", "group_inputs": group_inputs, "client_config": client_config,
                "model": model, "sampling_args": sampling_args or {}, "max_retries": max_retries,
                "state_columns": state_columns}
        reply = await self.checked_v0(pack(body))
        return reply["outputs"]

    # -- frames -----------------------------------------------------------------------------

    async def checked(self, method: str, body: Any, cancel_on_abort: bool = False) -> dict:
        reply = await self.request(method, body, cancel_on_abort=cancel_on_abort)
        if not reply.get("success"):
            raise EnvServerError(reply.get("error") or "env server request failed")
        return reply

    async def checked_v0(self, payload: bytes) -> dict:
        reply = await self.request_v0(payload, cancel_on_abort=True)
        if not reply.get("success"):
            raise EnvServerError(reply.get("error") or "env server request failed")
        return reply

    async def request(self, method: str, body: Any, timeout: float | None = None,
                      cancel_on_abort: bool = False, request_id: str | None = None) -> dict:
        """Sends a v1 request (``body`` packed unless it is bytes) and awaits its reply."""
        payload = body if isinstance(body, bytes) else pack(body)
        rid = request_id or uuid.uuid4().hex
        abort = (lambda: self._send([uuid.uuid4().hex.encode(), b"cancel", pack({"request_id": rid})])) \
            if cancel_on_abort else None
        return await self._await(rid, [rid.encode(), method.encode(), payload], timeout, abort)

    async def request_v0(self, payload: bytes, timeout: float | None = None, cancel_on_abort: bool = False,
                         request_id: str | None = None) -> dict:
        rid = request_id or uuid.uuid4().hex
        abort = (lambda: self._send([rid.encode(), b""])) if cancel_on_abort else None
        return await self._await(rid, [rid.encode(), payload], timeout, abort)

    async def send_raw(self, frames: list[bytes]) -> None:
        """Sends frames as given (tests of malformed requests)."""
        await self._socket.send_multipart(frames)

    async def _await(self, rid: str, frames: list[bytes], timeout: float | None, abort) -> dict:
        self._ensure_receiver()
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        await self._socket.send_multipart(frames)
        try:
            data = await asyncio.wait_for(future, timeout)
        except asyncio.CancelledError:
            self._waiting.pop(rid, None)
            if abort is not None:
                task = asyncio.get_running_loop().create_task(abort())
                self._background.add(task)
                task.add_done_callback(self._background.discard)
            raise
        except asyncio.TimeoutError:
            self._waiting.pop(rid, None)
            raise
        return unpack(data)

    async def _send(self, frames: list[bytes]) -> None:
        with contextlib.suppress(Exception):
            await self._socket.send_multipart(frames)

    def _ensure_receiver(self) -> None:
        if self._receiver is None:
            self._receiver = asyncio.get_running_loop().create_task(self._receive())

    async def _receive(self) -> None:
        while True:
            try:
                frames = await self._socket.recv_multipart()
            except (asyncio.CancelledError, zmq.ZMQError):
                return
            if len(frames) < 2:
                continue
            future = self._waiting.pop(frames[0].decode(), None)
            if future is not None and not future.done():
                future.set_result(frames[1])

    async def close(self) -> None:
        if self._receiver is not None:
            self._receiver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._receiver
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)
        self._socket.close()
        self._ctx.term()

    async def __aenter__(self) -> "EnvServerClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


def blocking_request(address: str, method: str, body: Any, timeout: float) -> dict:
    """One v1 request, answered or timed out, outside any event loop (a ``Taskset.load`` runs there)."""
    ctx = zmq.Context()
    socket = ctx.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(address)
    try:
        rid = uuid.uuid4().hex
        socket.send_multipart([rid.encode(), method.encode(), pack(body)])
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not socket.poll(int(remaining * 1000)):
                raise TimeoutError(f"env server at {address} did not answer `{method}` in {timeout:.0f} s: "
                                   "is `vf env serve` running there?")
            frames = socket.recv_multipart()
            if frames[0].decode() == rid:
                return unpack(frames[1])
    finally:
        socket.close()
        ctx.term()


def fetch_tasks(address: str, split: str = "train", num_examples: int = -1, timeout: float = 600.0) -> list[dict]:
    """The server's rows as task data (vf's ``tasks`` method), blocking: for loaders that run
    outside an event loop, as a verifiers ``Taskset.load`` does. Waits up to ``timeout`` seconds
    for the server to answer (it may still be starting)."""
    reply = blocking_request(address, "tasks", {"split": split, "num_examples": num_examples}, timeout)
    if not reply.get("success"):
        raise EnvServerError(reply.get("error") or "tasks request failed")
    return reply["tasks"]
