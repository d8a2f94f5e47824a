"""``load_environment(env=..., address=...)``: a verifiers legacy ``Environment`` whose rollouts run in
a vf env server, for trainers that call an environment in process (rLLM's VerifiersWorkflow,
tinker-cookbook's verifiers recipe, SkyRL) and for verifiers' own ``run_rollout``, ``run_group``,
``generate`` and ``evaluate``:

- the datasets are the server's rows (vf's ``tasks`` method), as verifiers rows;
- ``rollout(input, client, model, sampling_args)`` serves ``client`` on a loopback URL
  (``vf_bridge.facade``: a verifiers ``Client`` of any API type, a ``ClientConfig``, or an
  AsyncOpenAI-like object), runs the rollout in the server (v0 ``run_rollout``, scored there,
  trajectory with token ids included) and returns it as a ``State``;
- a group runs in one ``run_group`` request, so group reward functions score together;
- the rubric keeps the server's rewards: its score methods record nothing new;
- without ``address``, ``vf env serve env -a env_args`` is started for this environment and
  stopped at its teardown (verifiers tears environments down at exit).
"""

from __future__ import annotations

import json
import time
from typing import Any

import verifiers as vf
from verifiers.types import RolloutTiming, State

from vf_bridge.facade import serve_client
from vf_bridge.protocol import EnvServerClient, fetch_tasks
from vf_bridge.server_process import VfServer, start_vf_server
from vf_bridge.server_version import check_server

# The state fields a rollout's output carries back, as verifiers' trainers read them.
_OUTPUT_FIELDS = ("prompt", "completion", "reward", "metrics", "is_completed", "is_truncated", "stop_condition",
                  "trajectory", "tool_defs", "token_usage")


class ServerScoredRubric(vf.Rubric):
    """The vf server scored the rollout; scoring here keeps its reward and metrics."""

    async def score_rollout(self, state: State, **kwargs: Any) -> None:
        return None

    async def score_group(self, states: list[State], **kwargs: Any) -> None:
        return None


class VfServedEnvironment(vf.Environment):
    """A vf environment served at ``address``; see the module comment."""

    def __init__(self, address: str, env_id: str = "", server: VfServer | None = None, **kwargs: Any) -> None:
        self.address = address
        self.server = server
        super().__init__(
            dataset=lambda: _dataset(address, "train"),
            eval_dataset=lambda: _dataset(address, "eval"),
            rubric=ServerScoredRubric(),
            env_id=env_id,
            **kwargs,
        )

    async def rollout(self, input, client, model, sampling_args=None) -> State:
        (output,) = await self._remote([input], client, model, sampling_args)
        return _state(input, output, model, sampling_args)

    async def _run_rollout_state(self, input, client, model, sampling_args) -> State:
        return await self.rollout(input, client, model, sampling_args)

    async def _run_group_states(self, group_inputs, client, model, sampling_args) -> list[State]:
        outputs = await self._remote(list(group_inputs), client, model, sampling_args, group=True)
        return [_state(i, o, model, sampling_args) for i, o in zip(group_inputs, outputs)]

    async def _remote(self, inputs: list, client: Any, model: str, sampling_args: dict | None,
                      group: bool = False) -> list[dict]:
        rows = [_wire_row(row) for row in inputs]
        async with EnvServerClient(self.address) as server, serve_client(client, model=model) as base_url:
            # The token client type makes the server ask for vLLM's token fields; the facade passes
            # that request on to clients that can answer it (see vf_bridge.chat_call).
            config = {"client_type": "openai_chat_completions_token", "api_base_url": base_url, "api_key_var": ""}
            columns = ["trajectory"]
            if group:
                return await server.run_group(rows, config, model, sampling_args or {}, state_columns=columns)
            return [await server.run_rollout(rows[0], config, model, sampling_args or {}, state_columns=columns)]

    @vf.teardown
    async def stop_vf_server(self) -> None:
        """Stops the ``vf env serve`` this environment started (none when given an address)."""
        if self.server is not None:
            self.server.stop()


def _dataset(address: str, split: str):
    from datasets import Dataset

    # info travels as JSON text: Arrow gives rows' differing info dicts one merged schema otherwise.
    return Dataset.from_list([
        {"prompt": task["prompt"], "answer": task.get("answer", ""), "info": json.dumps(task.get("info") or {}),
         "task": task.get("task", "default"), "example_id": task["idx"]}
        for task in fetch_tasks(address, split)
    ])


def _wire_row(row: Any) -> dict:
    """A verifiers row (dataset row, RolloutInput) as the server reads it: info as an object, and no
    null keys Arrow added to messages that lacked them."""
    wire = dict(row)
    if isinstance(wire.get("info"), str):
        wire["info"] = json.loads(wire["info"] or "{}")
    if isinstance(wire.get("prompt"), list):
        wire["prompt"] = [_drop_nulls(m) for m in wire["prompt"]]
    return wire


def _drop_nulls(message: Any) -> Any:
    if not isinstance(message, dict):
        return message
    return {key: value for key, value in message.items() if value is not None}


def _state(input, output: dict, model: str, sampling_args) -> State:
    """A ``State`` holding the server's rollout, with the fields verifiers' trainers read."""
    state = State(input=dict(input))
    state["model"] = model
    state["sampling_args"] = sampling_args
    for key in _OUTPUT_FIELDS:
        if key in output:
            state[key] = output[key]
    state["error"] = output.get("error")
    timing = RolloutTiming()
    timing.generation.start = output.get("timing", {}).get("start_time", time.time())
    state["timing"] = timing
    return state


def load_environment(env: str = "", address: str | None = None, **env_args: Any) -> VfServedEnvironment:
    """The vf environment ``env`` (an id or package folder), served at ``address``; with no address,
    ``vf env serve env -a env_args`` is started for it (see vf_bridge.server_process for how vf is
    found) and stopped at the environment's teardown."""
    server = None
    if address is None:
        if not env:
            raise ValueError("load_environment needs env= (a vf environment id) or address= (a running vf env serve)")
        server = start_vf_server(env, env_args)
        address = server.address
    check_server(address)
    return VfServedEnvironment(address, env_id=env, server=server)
