import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { CancelledError } from "../errors.ts";
import { lastAssistantText, type Messages } from "../messages/message.ts";
import type { RolloutInput, RolloutState } from "../rollout/rollout-state.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { sequence } from "../testing/scripted-reply.ts";
import { type EnvResponse, MultiTurnEnv, type MultiTurnEnvOptions } from "./multi-turn-env.ts";
import { SingleTurnEnv } from "./single-turn-env.ts";
import { ToolEnv } from "./tool-env.ts";

const dataset = Dataset.fromRows([{ question: "Count with me.", answer: "3" }]);
const input: RolloutInput = {
  exampleId: 0,
  rolloutIndex: 0,
  prompt: [{ role: "user", content: "Count with me." }],
  answer: "3",
  info: {},
  task: "default",
};

/** A game that answers every model turn with "next", and ends with "done" once the model says "stop". */
class Counter extends MultiTurnEnv<{ replies: number }> {
  cleanedUp = 0;
  constructor(options: Partial<MultiTurnEnvOptions<{ replies: number }>> & { setupDelayMs?: number } = {}) {
    const delay = options.setupDelayMs ?? 0;
    super({
      dataset,
      initialData: async () => {
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        return { replies: 0 };
      },
      ...options,
    });
    this.addCleanup("count", () => {
      this.cleanedUp++;
    });
  }
  protected envResponse(messages: Messages, state: RolloutState<{ replies: number }>): EnvResponse {
    state.data.replies++;
    if (lastAssistantText(messages) === "stop")
      return { messages: [{ role: "user", content: "done" }], final: true };
    return [{ role: "user", content: `next ${state.data.replies}` }];
  }
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(options: Parameters<typeof startScriptedServer>[0]) {
  server = await startScriptedServer(options);
  return new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
}

describe("MultiTurnEnv", () => {
  it("alternates model and environment turns until max turns, recording the stop condition", async () => {
    const client = await clientFor({ reply: sequence(["one", "two", "three", "four"]) });
    const state = await new Counter({ maxTurns: 3 }).rollout(input, { client, model: "scripted" });
    expect(state.stopCondition).toBe("max_turns_reached");
    expect(state.completion.map((m) => `${m.role}:${m.content}`)).toEqual([
      "assistant:one",
      "user:next 1",
      "assistant:two",
      "user:next 2",
      "assistant:three",
    ]);
    expect(state.turns).toHaveLength(3);
    expect(state.data.replies).toBe(2);
  });

  it("sends headers read from the rollout's state with each of its model requests", async () => {
    const client = await clientFor({ reply: sequence(["one", "two"]) });
    const headersFromState = {
      "X-Session-ID": "trajectory_id",
      "X-Example": "example_id",
      "X-Replies": "replies",
    };
    const env = new Counter({ maxTurns: 2 });
    const first = await env.rollout(input, { client, model: "scripted", headersFromState });
    const second = await env.rollout(
      { ...input, exampleId: 4 },
      { client, model: "scripted", headersFromState },
    );
    const sent = server!.headers.map((h) => [h["x-session-id"], h["x-example"], h["x-replies"]]);
    // Each turn reads the state as it is then: the environment's own data changes between turns.
    expect(sent).toEqual([
      [first.trajectoryId, "0", "0"],
      [first.trajectoryId, "0", "1"],
      [second.trajectoryId, "4", "0"],
      [second.trajectoryId, "4", "1"],
    ]);
    expect(first.trajectoryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.trajectoryId).not.toBe(first.trajectoryId);
  });

  it("ends on a final environment response and keeps it in the completion", async () => {
    const client = await clientFor({ reply: sequence(["go", "stop", "never"]) });
    const state = await new Counter().rollout(input, { client, model: "scripted" });
    expect(state.stopCondition).toBe("has_final_env_response");
    expect(state.completion.at(-1)).toEqual({ role: "user", content: "done" });
    expect(state.finalEnvResponse).toEqual([{ role: "user", content: "done" }]);
    expect(server!.requests).toHaveLength(2);
  });

  it("passes sampling args through untouched, the caller's over the environment's", async () => {
    const client = await clientFor({ reply: sequence(["stop"]) });
    const env = new Counter({ sampling: { temperature: 0.2, max_tokens: 50 } });
    await env.rollout(input, {
      client,
      model: "scripted",
      sampling: { temperature: 0.9, top_k: 7, min_p: 0.1 },
    });
    expect(server!.requests[0]).toMatchObject({ temperature: 0.9, top_k: 7, min_p: 0.1, max_tokens: 50 });
  });

  it("times out mid-rollout, keeping the partial completion, and still cleans up", async () => {
    const client = await clientFor({
      reply: sequence(["one", "two"]),
      latencySeconds: (_request, index) => (index === 0 ? 0 : 5),
    });
    const env = new Counter({ timeoutSeconds: 0.3 });
    const state = await env.rollout(input, { client, model: "scripted" });
    expect(state.timedOut).toBe(true);
    expect(state.stopCondition).toBe("timeout_reached");
    expect(state.completion.map((m) => m.content)).toEqual(["one", "next 1"]);
    expect(state.error).toBeNull();
    expect(env.cleanedUp).toBe(1);
  });

  it("times out during setup with an empty completion", async () => {
    const client = await clientFor({ reply: sequence(["one"]) });
    const state = await new Counter({ timeoutSeconds: 0.1, setupDelayMs: 2_000 }).rollout(input, {
      client,
      model: "scripted",
    });
    expect(state.stopCondition).toBe("timeout_reached");
    expect(state.completion).toEqual([]);
    expect(state.turns).toEqual([]);
  });

  it("ends a rollout whose initialData throws before any turn, and neither cleans it up nor scores it", async () => {
    const client = await clientFor({ reply: sequence(["one"]) });
    let scored = 0;
    const noGame = async (): Promise<{ replies: number }> => {
      throw new Error("no game for this row");
    };
    const rubric = new Rubric<{ replies: number }>().addReward(() => ++scored, { name: "scored" });
    const env = new Counter({ rubric, initialData: noGame });
    const state = await env.rollout(input, { client, model: "scripted" });
    expect(state.stopCondition).toBe("has_error");
    expect(state.error).toMatchObject({ error: "Error", message: "no game for this row" });
    expect(state.begun).toBe(false);
    expect(server!.requests).toHaveLength(0);
    expect(env.cleanedUp).toBe(0);
    await env.score([state], { independent: false });
    expect(scored).toBe(0);
    expect(state.metrics).toEqual({ scored: 0, num_turns: 0 });
  });

  it("records a model error on the rollout, marks it retryable, and stops with has_error", async () => {
    const client = await clientFor({ reply: sequence([{ type: "error", status: 500, message: "boom" }]) });
    const env = new Counter();
    const state = await env.rollout(input, { client, model: "scripted" });
    expect(state.stopCondition).toBe("has_error");
    expect(state.error?.error).toBe("ModelHttpError");
    expect(state.retryable).toBe(true);
    expect(env.cleanedUp).toBe(1);
  });

  it("stops with prompt_too_long when the prompt exceeds the context", async () => {
    const client = await clientFor({
      reply: sequence([
        "one",
        { type: "error", status: 400, message: "This model's maximum context length is 10 tokens." },
      ]),
    });
    const state = await new Counter().rollout(input, { client, model: "scripted" });
    expect(state.stopCondition).toBe("prompt_too_long");
    expect(state.isTruncated).toBe(true);
    expect(state.error).toBeNull();
  });

  it("lowers max_tokens to fit the total completion-token cap, then stops at it", async () => {
    const client = await clientFor({ reply: sequence(["aaaa aaaa", "bbbb bbbb", "cccc"]) });
    const env = new Counter({ maxTotalCompletionTokens: 12, sampling: { max_tokens: 100 } });
    const state = await env.rollout(input, { client, model: "scripted" });
    const sent = server!.requests.map((r) => r.max_tokens);
    expect(sent[0]).toBe(12);
    expect(sent[1]).toBeLessThan(12);
    expect(state.stopCondition).toBe("max_total_completion_tokens_reached");
  });

  it("checks stop conditions by priority, then name", async () => {
    const client = await clientFor({ reply: sequence(["one"]) });
    const env = new Counter({ maxTurns: 1 });
    env.addStopCondition("always_b", () => true, 5);
    env.addStopCondition("always_a", () => true, 5);
    const state = await env.rollout(input, { client, model: "scripted" });
    expect(state.stopCondition).toBe("always_a");
    expect(state.turns).toHaveLength(0);
  });

  it("rejects with CancelledError when cancelled, after running cleanup", async () => {
    const client = await clientFor({ reply: sequence(["one"]), latencySeconds: 5 });
    const env = new Counter();
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    await expect(
      env.rollout(input, { client, model: "scripted", signal: abort.signal }),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(env.cleanedUp).toBe(1);
  });

  it("records a raising environment response as the rollout's error", async () => {
    const client = await clientFor({ reply: sequence(["one"]) });
    class Broken extends Counter {
      protected override envResponse(): EnvResponse {
        throw new Error("game crashed");
      }
    }
    const state = await new Broken().rollout(input, { client, model: "scripted" });
    expect(state.error).toMatchObject({ error: "Error", message: "game crashed" });
    expect(state.stopCondition).toBe("has_error");
    expect(state.completion).toHaveLength(1);
  });

  it("ends a rollout whose environment replies with what is not chat messages, naming what is wrong", async () => {
    const client = await clientFor({ reply: sequence(["one", "two"]) });
    const replies: unknown[] = [
      undefined, // a forgotten return
      [{ role: "narrator", content: "hi" }],
      { messages: [{ role: "tool", content: "42" }], final: true },
    ];
    const errors = [];
    for (const reply of replies) {
      class Sloppy extends Counter {
        protected override envResponse(): EnvResponse {
          return reply as EnvResponse;
        }
      }
      const state = await new Sloppy().rollout(input, { client, model: "scripted" });
      expect(state.stopCondition).toBe("has_error");
      expect(state.completion).toHaveLength(1); // the model's reply, nothing of the bad one
      errors.push(state.error);
    }
    expect(errors.map((e) => e?.error)).toEqual(["EnvResponseError", "EnvResponseError", "EnvResponseError"]);
    expect(errors[0]?.message).toMatch(/^envResponse returned undefined: return an array of chat messages/);
    expect(errors[1]?.message).toMatch(/not a chat message: 0\.role: Invalid discriminator/);
    expect(errors[2]?.message).toMatch(/tool_call_id/);
  });

  it("fills in a reply's defaults as its schema gives them", async () => {
    const client = await clientFor({ reply: sequence(["one", "stop"]) });
    class Terse extends Counter {
      protected override envResponse(): EnvResponse {
        return [{ role: "assistant" } as never, { role: "user", content: "go on" }];
      }
    }
    const state = await new Terse({ maxTurns: 2 }).rollout(input, { client, model: "scripted" });
    expect(state.completion[1]).toEqual({ role: "assistant", content: "" });
  });
});

describe("SingleTurnEnv", () => {
  it("makes exactly one model call and keeps its token ids and logprobs", async () => {
    const client = await clientFor({ reply: sequence(["3"]), tokens: true });
    const env = new SingleTurnEnv({ dataset });
    const state = await env.rollout(input, { client, model: "scripted" });
    expect(state.stopCondition).toBe("max_turns_reached");
    expect(state.completion).toEqual([{ role: "assistant", content: "3" }]);
    const tokens = state.turns[0]!.response.tokens!;
    expect(tokens.promptIds.length).toBeGreaterThan(0);
    expect(tokens.completionIds.length).toBe(tokens.completionLogprobs.length);
  });
});

describe("initialData", () => {
  // The @ts-expect-error lines are the test of the types: `npm run check` (tsc) fails if one compiles.
  it("must be given where Data has required fields, and is {} where Data has none", async () => {
    // @ts-expect-error: { replies: number } has a required field, and nothing would make it
    new SingleTurnEnv<{ replies: number }>({ dataset });
    // @ts-expect-error: the same for a tool environment
    new ToolEnv<{ folder: string }>({ dataset });
    class Overridden extends MultiTurnEnv<{ replies: number }> {
      // @ts-expect-error: a method cannot stand in for the option, which the constructor requires
      protected override initialData() {
        return { replies: 0 };
      }
      protected envResponse(): EnvResponse {
        return [];
      }
    }
    expect(Overridden).toBeDefined();

    const client = await clientFor({ reply: sequence(["3", "3"]) });
    const notes = new SingleTurnEnv<{ note?: string }>({ dataset });
    expect((await notes.rollout(input, { client, model: "scripted" })).data).toEqual({});
    const counted = new SingleTurnEnv({ dataset, initialData: (row) => ({ row: row.exampleId }) });
    expect((await counted.rollout(input, { client, model: "scripted" })).data).toEqual({ row: 0 });
  });
});
