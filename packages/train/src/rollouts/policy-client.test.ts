import type { ModelClient } from "@vf-rl/core";
import type { ChatRequest, ModelResponse } from "@vf-rl/core/client";
import { describe, expect, it } from "vitest";
import { PolicyClient } from "./policy-client.ts";

/** A model client that records what it was asked and answers with a fixed message. */
function recordingClient(): { client: ModelClient; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const client: ModelClient = {
    baseUrl: "http://127.0.0.1:1/v1",
    chat: async (request) => {
      requests.push(request);
      return {
        id: `r${requests.length}`,
        model: request.model,
        message: { role: "assistant", content: "ok" },
        finishReason: "stop",
        usage: { promptTokens: 1, completionTokens: 1 },
        tokens: { promptIds: [1], completionIds: [2], completionLogprobs: [-0.1] },
      } satisfies ModelResponse;
    },
  };
  return { client, requests };
}

const ask = (content: string): ChatRequest => ({
  model: "m",
  messages: [{ role: "user", content }],
  sampling: { temperature: 1, max_tokens: 8 },
});

describe("the policy client (how environments reach the sampler)", () => {
  it("asks for the token fields and keeps the environment's sampling args", async () => {
    const { client, requests } = recordingClient();
    const policy = new PolicyClient({ inner: client, version: () => 0 });
    await policy.forGroup(1).chat(ask("hi"));
    expect(requests[0]!.sampling).toMatchObject({
      temperature: 1,
      max_tokens: 8,
      logprobs: true,
      return_token_ids: true,
    });
    expect(requests[0]!.sampling.seed).toEqual(expect.any(Number));
  });

  it("gives each rollout of a group its own seed, the same ones every time, and other groups others", async () => {
    const seeds = async (groupSeed: number): Promise<unknown[]> => {
      const { client, requests } = recordingClient();
      const group = new PolicyClient({ inner: client, version: () => 0 }).forGroup(groupSeed);
      for (let i = 0; i < 4; i++) await group.chat(ask("same prompt")); // the four rollouts' first turns
      await group.chat(ask("a later turn"));
      return requests.map((r) => r.sampling.seed);
    };
    const first = await seeds(7);
    expect(new Set(first).size).toBe(5);
    expect(await seeds(7)).toEqual(first);
    expect(await seeds(8)).not.toEqual(first);
    for (const seed of first) expect(seed).toBeLessThan(2 ** 31);
  });

  it("seeds a turn after a tool call alike whatever ids the server gave the calls", async () => {
    const afterCall = (id: string, result: string): ChatRequest => ({
      ...ask("what is 6 * 7?"),
      messages: [
        { role: "user", content: "what is 6 * 7?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id, type: "function", function: { name: "bash", arguments: '{"command":"echo $((6*7))"}' } },
          ],
        },
        { role: "tool", tool_call_id: id, content: result },
      ],
    });
    const seedOf = async (request: ChatRequest): Promise<unknown> => {
      const { client, requests } = recordingClient();
      await new PolicyClient({ inner: client, version: () => 0 }).forGroup(7).chat(request);
      return requests[0]!.sampling.seed;
    };
    const seed = await seedOf(afterCall("call_0a1b", "42"));
    expect(await seedOf(afterCall("call_9f8e", "42"))).toBe(seed); // another run, other random ids
    expect(await seedOf(afterCall("call_0a1b", "41"))).not.toBe(seed); // another conversation
  });

  it("tags every response with the policy version the server held when it was asked", async () => {
    const { client } = recordingClient();
    let version = 3;
    const policy = new PolicyClient({ inner: client, version: () => version });
    const group = policy.forGroup(0);
    const early = await group.chat(ask("a"));
    version = 4;
    const late = await group.chat(ask("b"));
    expect(policy.versionOf(early)).toBe(3);
    expect(policy.versionOf(late)).toBe(4);
    expect(policy.versionOf({ ...late })).toBeUndefined(); // not one of its responses
  });
});
