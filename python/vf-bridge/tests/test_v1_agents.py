"""A served taskset's v1 episodes, read the way verifiers and prime-rl read them: `vf env serve
coding-tasks --harness bash` against a scripted model (token ids on every answer) that fixes
js-slugify with one bash call, then says "Done.", and starts a long command on py-median (named by
VF_MARKER), a run to cancel. The episode is the bash agent's trace: checked against verifiers'
WireEpisode field by field (tests/wire_episode.py), and through prime-rl's trainable-branch rule."""

import asyncio
import json
import os
import unittest
import uuid

from tests import wire_episode
from tests.support import endpoint, env
from vf_bridge.protocol import EnvServerClient, EnvServerError


def scripted_logprob(token_id: int) -> float:
    """The logprob core's scripted server gives a sampled token (scripted-tokens.ts)."""
    return -((token_id % 17) + 1) / 20


def trainable_branches(trace: dict) -> list[tuple[dict, list[bool]]]:
    """prime-rl's ``iter_trainable_branches`` (orchestrator/trajectories.py at 559b44772): each branch
    with its mask, a sampled node shared by several branches trained only in the first."""
    trained: set[int] = set()
    out = []
    for branch in wire_episode.branches(trace):
        mask: list[bool] = []
        for node_id, node in zip(branch["node_ids"], branch["nodes"]):
            if node["sampled"] and any(node["mask"]) and node_id in trained:
                mask.extend([False] * len(node["mask"]))
            else:
                if node["sampled"] and any(node["mask"]):
                    trained.add(node_id)
                mask.extend(node["mask"])
        if any(mask):
            out.append((branch, mask))
    return out


def marked_processes(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker``."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            pids.append(int(entry))
    return pids


async def until(condition, seconds: float = 60.0) -> bool:
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.1)
    return condition()


class V1EpisodesOfAServedTaskset(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        self.client = EnvServerClient(env("VF_ADDRESS"))
        await self.client.wait_for_startup(timeout=60)
        self.tasks = {task["task"]: task for task in await self.client.tasks(split="eval")}

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def fixed_episode(self) -> dict:
        return await self.client.run(self.tasks["js-slugify"], endpoint("train"), "scripted",
                                     {"temperature": 0.7, "max_tokens": 512})

    async def test_the_episode_is_a_wire_episode_of_the_agents_trace_with_reward_1(self) -> None:
        task = self.tasks["js-slugify"]
        episode = await self.fixed_episode()
        self.assertEqual(wire_episode.problems(episode), [])
        self.assertEqual(episode["env"]["id"], "coding-tasks")
        self.assertTrue(episode["ok"])
        [trace] = episode["traces"]
        self.assertEqual(trace["task"]["data"], task)
        self.assertEqual(trace["agent"]["config"]["harness"], {"id": "bash"})
        self.assertEqual(trace["rewards"], {"reward": {"score": 1, "weight": 1}})
        self.assertEqual(wire_episode.reward(trace), 1.0)
        self.assertEqual(trace["metrics"]["checks_passed"], 1)
        self.assertEqual(trace["stop_condition"], "agent_completed")
        self.assertTrue(trace["ok"])
        self.assertIn("bash", [tool["name"] for tool in trace["tools"]])

    async def test_the_agents_calls_are_one_branch_a_bash_call_its_result_and_the_answer(self) -> None:
        trace = (await self.fixed_episode())["traces"][0]
        [branch] = wire_episode.branches(trace)
        messages = branch["messages"]
        # The bash agent's system prompt, the task, its bash call, the tool's output, its answer.
        self.assertEqual([m["role"] for m in messages], ["system", "user", "assistant", "tool", "assistant"])
        [call] = messages[2]["tool_calls"]
        self.assertEqual(call["name"], "bash")
        self.assertIn("slugify.js", json.loads(call["arguments"])["command"])
        self.assertEqual(messages[3]["tool_call_id"], call["id"])
        self.assertEqual(messages[4]["content"], "Done.")
        self.assertEqual([c["node"] for c in trace["calls"]], [2, 4])
        self.assertEqual(wire_episode.num_turns(trace), 2)
        for model_call in trace["calls"]:
            self.assertEqual(model_call["model"], "scripted")
            self.assertEqual(model_call["sampling"]["temperature"], 0.7)
            self.assertTrue(model_call["sampling"]["return_token_ids"])
            self.assertIsNone(model_call["error"])

    async def test_every_sampled_token_trains_once_with_its_logprob_by_prime_rls_branch_rule(self) -> None:
        trace = (await self.fixed_episode())["traces"][0]
        [(branch, mask)] = trainable_branches(trace)
        tokens, logprobs = branch["token_ids"], branch["logprobs"]
        # The whole sequence the model saw on its last call, prompt and completion, nothing twice.
        last = trace["calls"][-1]["usage"]
        self.assertEqual(len(tokens), last["prompt_tokens"] + last["completion_tokens"])
        self.assertEqual(mask, branch["sampled_mask"])
        self.assertEqual(sum(mask), wire_episode.usage(trace)["completion_tokens"])
        for token, sampled, logprob in zip(tokens, mask, logprobs):
            self.assertEqual(logprob, scripted_logprob(token) if sampled else 0.0)

    async def test_a_cancelled_run_ends_the_agent(self) -> None:
        marker = env("VF_MARKER")
        rid = uuid.uuid4().hex
        run = asyncio.create_task(self.client.request(
            "run", {"task_data": self.tasks["py-median"], "client": endpoint("eval"), "model": "scripted",
                    "sampling": {}}, request_id=rid))
        # The agent's bash tool runs the long command; then the run is cancelled.
        self.assertTrue(await until(lambda: marked_processes(marker) != []))
        self.assertTrue(await self.client.cancel(rid))
        reply = await run
        self.assertEqual(reply, {"success": False, "error": "Cancelled: rollout aborted"})
        if env("VF_AGENT_RUNTIME") == "local":
            # The sandbox ends everything the agent started (the subprocess runtime does not).
            self.assertTrue(await until(lambda: marked_processes(marker) == [], 30))

    async def test_a_task_the_taskset_does_not_have_is_refused_with_its_name(self) -> None:
        task = {**self.tasks["js-slugify"], "task": "no-such-task"}
        with self.assertRaises(EnvServerError) as raised:
            await self.client.run(task, endpoint("eval"), "scripted")
        self.assertIn("no-such-task", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
