"""An in-process object with an async chat.completions.create, served to the vf server for a rollout."""

import unittest
from types import SimpleNamespace

from tests.support import env
from vf_bridge.facade import serve_client
from vf_bridge.protocol import EnvServerClient


class Sampler:
    """Stands in for rLLM's RolloutEngine shim: answers with token ids and logprobs attached."""

    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    async def create(self, *, model: str, messages: list, **sampling) -> SimpleNamespace:
        self.calls.append({"model": model, "messages": messages, **sampling})
        text = "<reversed_text>\nfed cba\n</reversed_text>"
        choice = SimpleNamespace(
            index=0,
            finish_reason="stop",
            message=SimpleNamespace(role="assistant", content=text),
            logprobs=SimpleNamespace(content=[SimpleNamespace(token=f"t{i}", logprob=-0.5) for i in range(3)]),
        )
        choice.token_ids = [7, 8, 9]
        response = SimpleNamespace(id="shim-1", object="chat.completion", created=0, model=model, choices=[choice],
                                   usage=SimpleNamespace(prompt_tokens=4, completion_tokens=3, total_tokens=7))
        response.prompt_token_ids = [1, 2, 3, 4]
        return response


class Facade(unittest.IsolatedAsyncioTestCase):
    async def test_an_in_process_client_serves_one_rollout(self) -> None:
        sampler = Sampler()
        async with EnvServerClient(env("VF_ADDRESS")) as client:
            await client.wait_for_startup(timeout=60)
            async with serve_client(sampler, model="policy") as base_url:
                task = {"idx": 0, "prompt": [{"role": "user", "content": "abc def"}], "answer": "fed cba"}
                episode = await client.run(task, {"type": "train", "base_url": base_url, "api_key_var": ""},
                                           "policy", {"temperature": 1.0})
        trace = episode["traces"][0]
        self.assertEqual(len(sampler.calls), 1)
        self.assertEqual(sampler.calls[0]["model"], "policy")
        self.assertEqual(sampler.calls[0]["temperature"], 1.0)
        self.assertEqual(trace["rewards"]["lcs_reward"], {"score": 1, "weight": 1})
        assistant = trace["nodes"][-1]
        self.assertEqual(assistant["token_ids"], [1, 2, 3, 4, 7, 8, 9])
        self.assertEqual(assistant["mask"], [False] * 4 + [True] * 3)
        self.assertEqual(assistant["logprobs"], [-0.5] * 3)


if __name__ == "__main__":
    unittest.main()
