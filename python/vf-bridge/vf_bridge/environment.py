"""``load_environment(env=..., address=...)``: a verifiers v0 (legacy) ``Environment`` whose rollouts
run in a vf env server, for trainers that call an environment in process (rLLM's
VerifiersWorkflow, tinker-cookbook's verifiers recipe, SkyRL).

Written against verifiers' ``verifiers/legacy/envs/environment.py`` and ``rubrics/rubric.py`` at
commit a60a606ec (not installed or run here: PyPI is unreachable on vf's machines):

- the datasets are the server's rows (vf's ``tasks`` method), as verifiers rows;
- ``rollout(input, client, model, sampling_args)`` serves ``client`` (an AsyncOpenAI-like object)
  on a loopback URL (``vf_bridge.facade``), runs the rollout in the server (v0 ``run_rollout``,
  scored there, trajectory with token ids included) and returns it as a ``State``;
- ``run_group`` runs the whole group in one ``run_group`` request, so group reward functions
  score together; ``run_rollout`` one ``run_rollout``;
- the rubric keeps the server's rewards: its score methods record nothing new.
"""

from __future__ import annotations

import time
from typing import Any

import verifiers as vf
from verifiers.types import RolloutTiming, State

from vf_bridge.facade import serve_client
from vf_bridge.protocol import EnvServerClient, fetch_tasks
from vf_bridge.server_process import start_vf_server


class ServerScoredRubric(vf.Rubric):
    """The vf server scored the rollout; scoring here keeps its reward and metrics."""

    async def score_rollout(self, state: State) -> None:
        return None

    async def score_group(self, states: list[State]) -> None:
        return None


def _row(task: dict) -> dict:
    return {
        "prompt": task["prompt"],
        "answer": task.get("answer", ""),
        "info": task.get("info", {}),
        "task": task.get("task", "default"),
        "example_id": task["idx"],
    }


class VfServedEnvironment(vf.Environment):
    """A vf environment served at ``address``; see the module comment."""

    def __init__(self, address: str, env_id: str = "", **kwargs: Any) -> None:
        self.address = address
        super().__init__(
            dataset=lambda: _dataset(address, "train"),
            eval_dataset=lambda: _dataset(address, "eval"),
            rubric=ServerScoredRubric(),
            env_id=env_id,
            **kwargs,
        )

    async def rollout(self, input, client, model, sampling_args=None) -> State:
        (output,) = await self._remote(input=[input], client=client, model=model, sampling_args=sampling_args)
        return _state(input, output, model, sampling_args)

    async def _run_rollout_state(self, input, client, model, sampling_args) -> State:
        return await self.rollout(input, client, model, sampling_args)

    async def _run_group_states(self, group_inputs, client, model, sampling_args) -> list[State]:
        outputs = await self._remote(input=list(group_inputs), client=client, model=model,
                                     sampling_args=sampling_args, group=True)
        return [_state(i, o, model, sampling_args) for i, o in zip(group_inputs, outputs)]

    async def _remote(self, input: list, client, model: str, sampling_args, group: bool = False) -> list[dict]:
        rows = [dict(row) for row in input]
        async with EnvServerClient(self.address) as server, serve_client(client, model=model) as base_url:
            config = {"client_type": "openai_chat_completions_token", "api_base_url": base_url, "api_key_var": ""}
            columns = ["trajectory"]
            if group:
                return await server.run_group(rows, config, model, sampling_args or {}, state_columns=columns)
            return [await server.run_rollout(rows[0], config, model, sampling_args or {}, state_columns=columns)]


def _dataset(address: str, split: str):
    from datasets import Dataset

    return Dataset.from_list([_row(task) for task in fetch_tasks(address, split)])


def _state(input, output: dict, model: str, sampling_args) -> State:
    """A ``State`` holding the server's rollout, with the fields verifiers' trainers read."""
    state = State(input=dict(input))
    state["model"] = model
    state["sampling_args"] = sampling_args
    for key in ("prompt", "completion", "reward", "metrics", "is_completed", "is_truncated", "stop_condition",
                "trajectory", "tool_defs", "token_usage"):
        if key in output:
            state[key] = output[key]
    state["error"] = output.get("error")
    timing = RolloutTiming()
    timing.generation.start = output.get("timing", {}).get("start_time", time.time())
    state["timing"] = timing
    return state


def load_environment(env: str = "", address: str | None = None, **env_args: Any) -> VfServedEnvironment:
    """The vf environment ``env`` (an id or package folder), served at ``address``; with no address,
    ``vf env serve env -a env_args`` is started for this process (``VF_BIN`` or ``vf`` on PATH)."""
    if address is None:
        if not env:
            raise ValueError("load_environment needs env= (a vf environment id) or address= (a running vf env serve)")
        address, _ = start_vf_server(env, env_args)
    return VfServedEnvironment(address, env_id=env)
