"""The v1 episode of a multi-turn tool environment, read the way verifiers and prime-rl read it:
`vf env serve gsm8k-calculator` against a scripted model that calls `calculate` once, then answers
with the tool's result. Checked against verifiers' WireEpisode field by field (tests/wire_episode.py)
and through the views prime-rl's orchestrator computes (branches, tokens, mask, logprobs, reward)."""

import copy
import json
import unittest

from tests import wire_episode
from tests.support import endpoint, env
from vf_bridge.protocol import EnvServerClient


def scripted_logprob(token_id: int) -> float:
    """The logprob core's scripted server gives a sampled token (scripted-tokens.ts)."""
    return -((token_id % 17) + 1) / 20


class V1EpisodeOfAToolEnvironment(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        self.client = EnvServerClient(env("VF_ADDRESS"))
        await self.client.wait_for_startup(timeout=60)
        # A row as the server lists it (its system prompt), with a question the scripted model solves.
        task = (await self.client.tasks(split="eval", num_examples=1))[0]
        system = task["prompt"][0]
        self.assertEqual(system["role"], "system")
        self.task = {**task, "prompt": [system, {"role": "user", "content": "What is 6 times 7?"}], "answer": "42"}
        self.episode = await self.client.run(self.task, endpoint("train"), "scripted", {"temperature": 0.5})

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def test_the_episode_has_every_field_of_verifiers_wire_episode_and_no_other(self) -> None:
        self.assertEqual(wire_episode.problems(self.episode), [])
        episode = self.episode
        self.assertRegex(episode["id"], r"^[0-9a-f]{32}$")
        self.assertEqual(episode["env"]["id"], "gsm8k-calculator")
        self.assertEqual(episode["task"]["data"], self.task)
        self.assertTrue(episode["ok"])
        self.assertEqual(episode["errors"], [])
        self.assertEqual(len(episode["traces"]), 1)
        trace = episode["traces"][0]
        self.assertEqual(trace["task"], episode["task"])
        # The sampling the model calls were made with: the request's over the environment's defaults.
        config = trace["agent"]["config"]
        self.assertEqual(config["model"], "scripted")
        self.assertEqual(config["sampling"]["temperature"], 0.5)
        for call in trace["calls"]:
            # As sent: with the vLLM fields a "train" client asks for.
            self.assertEqual(call["sampling"], {**config["sampling"], "logprobs": True, "return_token_ids": True})
        self.assertEqual([t["name"] for t in trace["tools"]], ["calculate"])
        self.assertIn("expression", trace["tools"][0]["parameters"]["properties"])

    async def test_the_field_checks_catch_what_pydantic_would_reject_or_drop(self) -> None:
        episode = copy.deepcopy(self.episode)
        trace = episode["traces"][0]
        trace["nodes"][2]["message"]["tool_calls"] = [
            {"id": "call_0", "type": "function", "function": {"name": "calculate", "arguments": "{}"}}]
        trace["nodes"][0]["sampled"] = 0
        trace["stopped"] = "agent_completed"
        self.assertEqual(wire_episode.problems(episode), [
            "episode.traces[0].nodes[0].sampled: bool expected, got int 0",
            "episode.traces[0].nodes[2].message.tool_calls[0]: ToolCall.name is required and missing",
            "episode.traces[0].nodes[2].message.tool_calls[0]: ToolCall.arguments is required and missing",
            "episode.traces[0].nodes[2].message.tool_calls[0]: ToolCall has no field 'function' (pydantic would drop it)",
            "episode.traces[0].nodes[2].message.tool_calls[0]: ToolCall has no field 'type' (pydantic would drop it)",
            "episode.traces[0]: Trace has no field 'stopped' (pydantic would drop it)",
        ])

    async def test_the_conversation_is_one_branch_with_the_tool_call_and_its_result(self) -> None:
        trace = self.episode["traces"][0]
        [branch] = wire_episode.branches(trace)
        messages = branch["messages"]
        self.assertEqual([m["role"] for m in messages], ["system", "user", "assistant", "tool", "assistant"])
        [call] = messages[2]["tool_calls"]
        self.assertEqual(call["name"], "calculate")
        self.assertEqual(json.loads(call["arguments"]), {"expression": "6 * 7"})
        self.assertEqual(messages[3], {"role": "tool", "tool_call_id": call["id"], "content": "42"})
        self.assertEqual(messages[4]["content"], "The product is \\boxed{42}.")
        self.assertEqual([n["sampled"] for n in branch["nodes"]], [False, False, True, False, True])
        self.assertEqual(wire_episode.num_turns(trace), 2)

    async def test_rewards_carry_weights_and_metrics_and_stop_condition_are_filled(self) -> None:
        trace = self.episode["traces"][0]
        self.assertEqual(trace["rewards"], {"correct_answer": {"score": 1, "weight": 1}})
        self.assertEqual(wire_episode.reward(trace), 1.0)
        self.assertEqual(trace["metrics"], {
            "calculate_errors": 0, "lenient_correct_answer": 1, "num_turns": 2, "total_tool_calls": 1,
            "calculate_calls": 1,
        })
        self.assertEqual(trace["stop_condition"], "agent_completed")
        self.assertTrue(trace["is_completed"])
        self.assertTrue(trace["ok"])
        self.assertEqual(trace["errors"], [])

    async def test_each_model_call_is_linked_to_its_node_with_usage_and_time(self) -> None:
        trace = self.episode["traces"][0]
        calls = trace["calls"]
        self.assertEqual([c["node"] for c in calls], [2, 4])
        self.assertEqual([c["finish_reason"] for c in calls], ["tool_calls", "stop"])
        for call in calls:
            self.assertEqual(call["model"], "scripted")
            self.assertEqual(call["sampling"]["temperature"], 0.5)
            self.assertEqual(call["endpoint"], "/chat/completions")
            self.assertIsNone(call["error"])
            self.assertGreater(call["usage"]["prompt_tokens"], 0)
            self.assertGreater(call["usage"]["completion_tokens"], 0)
            self.assertLessEqual(call["time"]["start"], call["time"]["end"])
        self.assertLessEqual(calls[0]["time"]["end"], calls[1]["time"]["start"])
        # The second call's prompt is the first call's prompt and completion plus the tool's reply.
        self.assertGreater(calls[1]["usage"]["prompt_tokens"],
                           calls[0]["usage"]["prompt_tokens"] + calls[0]["usage"]["completion_tokens"])

    async def test_timing_spans_are_ordered_and_model_time_fits_in_the_agent_span(self) -> None:
        timing = self.episode["traces"][0]["timing"]
        self.assertLessEqual(timing["start"], timing["setup"]["start"] + 1e-6)
        self.assertLessEqual(timing["setup"]["start"], timing["setup"]["end"])
        self.assertLessEqual(timing["setup"]["end"], timing["agent"]["start"] + 1e-6)
        self.assertLessEqual(timing["agent"]["start"], timing["agent"]["end"])
        agent = timing["agent"]["end"] - timing["agent"]["start"]
        self.assertGreater(timing["agent"]["model"]["duration"], 0)
        self.assertAlmostEqual(timing["agent"]["model"]["duration"] + timing["agent"]["harness"]["duration"], agent,
                               delta=1e-3)
        self.assertLessEqual(timing["agent"]["end"], timing["scoring"]["start"] + 1e-3)
        self.assertLessEqual(timing["scoring"]["start"], timing["scoring"]["end"])

    async def test_the_branch_is_the_exact_token_sequence_with_sampled_mask_and_logprobs(self) -> None:
        trace = self.episode["traces"][0]
        [branch] = wire_episode.branches(trace)
        tokens, mask, logprobs = branch["token_ids"], branch["sampled_mask"], branch["logprobs"]
        for node in branch["nodes"]:
            self.assertEqual(len(node["mask"]), len(node["token_ids"]))
            self.assertEqual(len(node["logprobs"]), sum(node["mask"]))
        # The whole sequence the model saw on its last turn, prompt and completion, nothing twice.
        last = trace["calls"][-1]["usage"]
        self.assertEqual(len(tokens), last["prompt_tokens"] + last["completion_tokens"])
        self.assertEqual(sum(mask), wire_episode.usage(trace)["completion_tokens"])
        self.assertEqual(len(logprobs), len(tokens))
        for token, sampled, logprob in zip(tokens, mask, logprobs):
            self.assertEqual(logprob, scripted_logprob(token) if sampled else 0.0)
        # The sampled spans are the two answers (the scripted tokenizer is bytes below 256).
        spans = [bytes(t for t, s in zip(n["token_ids"], n["mask"]) if s and t < 256).decode()
                 for n in branch["nodes"] if n["sampled"]]
        self.assertIn('"name":"calculate"', spans[0])
        self.assertEqual(spans[1], "The product is \\boxed{42}.")


if __name__ == "__main__":
    unittest.main()
