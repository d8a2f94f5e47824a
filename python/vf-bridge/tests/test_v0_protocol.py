"""verifiers' v0 protocol against `vf env serve reverse-text`, with the same client."""

import asyncio
import unittest

from tests.support import env, v0_client_config
from vf_bridge.protocol import EnvServerClient, EnvServerError, pack

PROMPT = [{"role": "user", "content": "abc def"}]


class V0Protocol(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        self.client = EnvServerClient(env("VF_ADDRESS"))
        await self.client.wait_for_startup(timeout=60)

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def test_ping(self) -> None:
        self.assertTrue(await self.client.ping())

    async def test_run_rollout_returns_a_rollout_output(self) -> None:
        output = await self.client.run_rollout({"prompt": PROMPT, "example_id": 4, "answer": "fed cba"},
                                               v0_client_config(), "scripted")
        self.assertEqual(output["example_id"], 4)
        self.assertEqual(output["completion"][0]["role"], "assistant")
        self.assertEqual(output["lcs_reward"], output["metrics"]["lcs_reward"])
        self.assertIn("generation", output["timing"])
        self.assertNotIn("trajectory", output)

    async def test_run_group_scores_the_group_and_returns_token_trajectories(self) -> None:
        outputs = await self.client.run_group([{"prompt": PROMPT, "example_id": 9, "answer": "x"}] * 3,
                                              v0_client_config(), "scripted", state_columns=["trajectory"])
        self.assertEqual(len(outputs), 3)
        tokens = outputs[0]["trajectory"][0]["tokens"]
        self.assertEqual(len(tokens["completion_ids"]), len(tokens["completion_logprobs"]))
        self.assertEqual(set(tokens["completion_mask"]), {1})

    async def test_empty_payload_cancels_a_running_request(self) -> None:
        body = {"request_type": "run_rollout", "input": {"prompt": "a slow one", "example_id": 1},
                "client_config": v0_client_config(), "model": "scripted", "sampling_args": {},
                "max_retries": 0, "state_columns": None}
        run = asyncio.create_task(self.client.request_v0(pack(body), request_id="v0-cancel"))
        await self.client.ping()
        await self.client.send_raw([b"v0-cancel", b""])
        self.assertEqual(await run, {"success": False, "error": "Request was cancelled"})

    async def test_unknown_request_type_and_bad_input_are_errors(self) -> None:
        reply = await self.client.request_v0(pack({"request_type": "explode"}))
        self.assertEqual(reply, {"success": False, "error": "Unknown request type: explode"})
        with self.assertRaises(EnvServerError) as failure:
            await self.client.run_rollout({"example_id": 1}, v0_client_config(), "scripted")
        self.assertTrue(str(failure.exception).startswith("ValidationError('invalid RunRolloutRequest"), failure.exception)


if __name__ == "__main__":
    unittest.main()
