"""The v1 protocol against `vf env serve reverse-text`, from a client written from the protocol."""

import asyncio
import os
import signal
import unittest

from tests.support import endpoint, env
from vf_bridge.protocol import EnvServerClient, EnvServerError, fetch_tasks


class V1Protocol(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        self.client = EnvServerClient(env("VF_ADDRESS"))
        await self.client.wait_for_startup(timeout=60)

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def test_512_concurrent_runs_each_answered_with_its_own_episode(self) -> None:
        tasks = await self.client.tasks(split="train", num_examples=512)
        self.assertEqual(len(tasks), 512)
        episodes = await asyncio.gather(*(self.client.run(t, endpoint(), "scripted") for t in tasks))
        self.assertEqual([e["task"]["data"]["idx"] for e in episodes], [t["idx"] for t in tasks])
        for episode in episodes:
            trace = episode["traces"][0]
            self.assertTrue(episode["ok"])
            self.assertEqual(trace["stop_condition"], "agent_completed")
            self.assertEqual(trace["rewards"]["lcs_reward"]["weight"], 1)
            assistant = trace["nodes"][-1]
            self.assertTrue(assistant["sampled"])
            self.assertEqual(len(assistant["logprobs"]), sum(assistant["mask"]))

    async def test_fetch_tasks_blocking_matches_the_tasks_method(self) -> None:
        rows = await asyncio.to_thread(fetch_tasks, env("VF_ADDRESS"), "eval", 3)
        self.assertEqual(rows, await self.client.tasks("eval", 3))
        self.assertEqual(sorted(rows[0]), ["answer", "idx", "info", "prompt", "task"])

    async def test_replies_come_back_out_of_order_matched_by_id(self) -> None:
        arrived: list[str] = []

        async def run(name: str, prompt: str) -> dict:
            episode = await self.client.run({"idx": 1, "prompt": prompt}, endpoint(), "scripted")
            arrived.append(name)
            return episode

        first = asyncio.create_task(run("first", "a pause before this one"))
        await asyncio.sleep(0)
        second = await run("second", "quick")
        first_episode = await first
        self.assertEqual(arrived, ["second", "first"])
        self.assertIn("pause", first_episode["traces"][0]["nodes"][-1]["message"]["content"])
        self.assertEqual(second["traces"][0]["nodes"][-1]["message"]["content"], "quick")

    async def test_cancel_a_running_rollout_and_an_unknown_id(self) -> None:
        rid = "run-to-cancel"
        run = asyncio.create_task(
            self.client.request("run", {"task_data": {"idx": 1, "prompt": "a slow one"}, "client": endpoint(),
                                        "model": "scripted", "sampling": {}}, request_id=rid))
        # Frames of one connection arrive in order: once health answers, the broker has the run.
        await self.client.health()
        self.assertTrue(await self.client.cancel(rid))
        self.assertEqual(await run, {"success": False, "error": "Cancelled: rollout aborted"})
        self.assertFalse(await self.client.cancel("no-such-request"))

    async def test_unknown_method_and_malformed_payload_are_errors_not_crashes(self) -> None:
        reply = await self.client.request("explode", {})
        self.assertEqual(reply, {"success": False, "error": "unknown method 'explode'"})
        reply = await self.client.request("run", b"\xc1\xff\x00")
        self.assertFalse(reply["success"])
        self.assertTrue(reply["error"].startswith("MalformedPayloadError: the payload is not msgpack"), reply)
        reply = await self.client.request("run", {"task_data": {"idx": 1}, "client": endpoint(), "model": "m"})
        self.assertEqual(reply["error"], "TaskDataError: task_data has no prompt: send prompt as a string or messages")
        self.assertTrue(await self.client.health())

    async def test_zz_a_killed_worker_fails_its_runs_clearly_and_is_restarted(self) -> None:
        killed = int(env("VF_WORKER_PID"))
        runs = [asyncio.create_task(self.client.run({"idx": i, "prompt": f"a slow one, {i}"}, endpoint(), "scripted"))
                for i in range(3)]
        # All three are running in the worker (the pool has one) when it dies.
        await self.until(lambda stats: stats["workers"][0]["pid"] == killed and stats["workers"][0]["active"] == 3)
        os.kill(killed, signal.SIGKILL)
        for run in runs:
            with self.assertRaises(EnvServerError) as failure:
                await asyncio.wait_for(run, 60)
            message = str(failure.exception)
            self.assertRegex(message, rf"^WorkerCrashedError: env server worker 0 \(pid {killed}\) was killed by SIGKILL")
            self.assertIn("the server restarted it: send the request again", message)
        # A new process took its place, and the killed one is gone.
        stats = await self.until(lambda stats: len(stats["workers"]) == 1 and stats["workers"][0]["ready"]
                                 and stats["workers"][0]["pid"] != killed)
        self.assertEqual(stats["workers"][0]["index"], 0)
        self.assertEqual(stats["accepted"], 0)
        self.assertFalse(os.path.exists(f"/proc/{killed}") and not _zombie(killed))
        episodes = await asyncio.gather(*(self.client.run({"idx": 10 + i, "prompt": f"after the crash {i}"}, endpoint(),
                                                          "scripted") for i in range(3)))
        self.assertEqual([e["ok"] for e in episodes], [True, True, True])
        self.assertEqual([e["traces"][0]["nodes"][-1]["message"]["content"] for e in episodes],
                         [f"after the crash {i}" for i in range(3)])

    async def until(self, condition, timeout: float = 60.0) -> dict:
        """Polls ``stats`` until ``condition(stats)`` holds; returns those stats."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            stats = await self.client.stats()
            if condition(stats):
                return stats
            if loop.time() > deadline:
                self.fail(f"the server's stats never met the condition: {stats}")
            await asyncio.sleep(0.05)


def _zombie(pid: int) -> bool:
    """Whether the process has exited and only waits to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except FileNotFoundError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"

if __name__ == "__main__":
    unittest.main()
