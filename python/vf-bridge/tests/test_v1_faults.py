"""Health during start-up and failing environments, against `vf env serve` of a faulty test env."""

import asyncio
import unittest

from tests.support import endpoint, env
from vf_bridge.protocol import EnvServerClient, EnvServerError


class Faults(unittest.IsolatedAsyncioTestCase):
    async def test_health_answers_while_the_worker_loads_and_runs_wait_for_it(self) -> None:
        async with EnvServerClient(env("VF_ADDRESS")) as client:
            order: list[str] = []

            async def run() -> dict:
                episode = await client.run({"idx": 0, "prompt": "hello"}, endpoint("eval"), "scripted")
                order.append("run")
                return episode

            pending = asyncio.create_task(run())
            self.assertTrue(await client.health(timeout=2))
            order.append("health")
            episode = await pending
            self.assertEqual(order, ["health", "run"])
            trace = episode["traces"][0]
            self.assertEqual(trace["stop_condition"], "max_turns")
            self.assertEqual([n["message"]["role"] for n in trace["nodes"]], ["user", "assistant", "user", "assistant"])

    async def test_an_environment_reply_that_throws_is_recorded_on_the_trace(self) -> None:
        async with EnvServerClient(env("VF_ADDRESS")) as client:
            task = {"idx": 0, "prompt": "hello", "info": {"throw_in_env_response": True}}
            episode = await client.run(task, endpoint("eval"), "scripted")
            trace = episode["traces"][0]
            self.assertFalse(episode["ok"])
            self.assertEqual(trace["stop_condition"], "error")
            self.assertEqual((trace["errors"][0]["type"], trace["errors"][0]["message"]), ("Error", "the environment broke"))

    async def test_a_rollout_that_throws_is_an_error_reply(self) -> None:
        async with EnvServerClient(env("VF_ADDRESS")) as client:
            with self.assertRaises(EnvServerError) as failure:
                await client.run({"idx": 0, "prompt": "hi", "info": {"throw_in_rollout": True}}, endpoint(), "m")
            self.assertEqual(str(failure.exception), "TypeError: rollout exploded")
            self.assertTrue(await client.health())


if __name__ == "__main__":
    unittest.main()
