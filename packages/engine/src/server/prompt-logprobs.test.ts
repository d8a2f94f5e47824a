// vLLM's prompt_logprobs on /v1/completions: a token-id prompt scored in one forward pass, the way a
// frozen teacher scores a student's samples in on-policy distillation.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderChat } from "../tokenizer/chat-template.ts";
import { type EngineServer, startEngineServer } from "./engine-server.ts";
import { randomModel } from "./test-support.ts";

/** A completion with vLLM's token fields and prompt scores. */
type ScoredCompletion = Omit<OpenAI.Completion, "choices"> & {
  choices: Array<
    OpenAI.CompletionChoice & {
      token_ids: number[];
      prompt_token_ids: number[];
      prompt_logprobs?: (Record<string, { logprob: number; rank: number; decoded_token: string }> | null)[];
    }
  >;
};

let server: EngineServer;
let client: OpenAI;
const prompt = renderChat([{ role: "user", content: "Say something" }], { addGenerationPrompt: true });

beforeAll(async () => {
  server = await startEngineServer({ model: randomModel(), modelName: "tiny" });
  client = new OpenAI({ baseURL: server.url, apiKey: "EMPTY", maxRetries: 0 });
});
afterAll(() => server.close());

/** POST /v1/completions with vLLM's fields. */
async function complete(body: Record<string, unknown>): Promise<ScoredCompletion> {
  return (await client.completions.create({
    model: "tiny",
    ...body,
  } as unknown as OpenAI.CompletionCreateParamsNonStreaming)) as ScoredCompletion;
}

describe("prompt_logprobs on /v1/completions", () => {
  it("scores a sampled sequence's tokens exactly as the sampler did when it drew them", async () => {
    const sampled = await complete({ prompt, max_tokens: 16, temperature: 1, seed: 4, logprobs: 0 });
    const choice = sampled.choices[0]!;
    const sequence = [...choice.prompt_token_ids, ...choice.token_ids];

    const scored = await complete({ prompt: sequence, max_tokens: 1, prompt_logprobs: 0 });
    const scores = scored.choices[0]!.prompt_logprobs!;
    expect(scores).toHaveLength(sequence.length);
    expect(scores[0]).toBeNull(); // nothing precedes the first token
    const completionScores = choice.token_ids.map(
      (token, i) => scores[prompt.length + i]![String(token)]!.logprob,
    );
    expect(completionScores).toEqual(choice.logprobs!.token_logprobs); // bit for bit
  });

  it("answers in vLLM's shape: per position the prompt's own token and the k most likely, with ranks", async () => {
    const scored = await complete({ prompt, max_tokens: 1, prompt_logprobs: 2 });
    const scores = scored.choices[0]!.prompt_logprobs!;
    for (let t = 1; t < prompt.length; t++) {
      const entries = scores[t]!;
      const own = entries[String(prompt[t])]!;
      expect(own.rank).toBeGreaterThanOrEqual(1);
      expect(own.logprob).toBeLessThanOrEqual(0);
      const ranked = Object.values(entries).sort((a, b) => a.rank - b.rank);
      expect(ranked[0]!.rank).toBe(1);
      expect(Object.keys(entries).length).toBe(own.rank <= 2 ? 2 : 3);
      // the most likely token is at least as likely as the prompt's own
      expect(ranked[0]!.logprob).toBeGreaterThanOrEqual(own.logprob);
    }
    expect(scores[1]![String(prompt[1])]!.decoded_token).toBe("<|user|>");
  });

  it("scores each prompt of a request, the same for each of its n choices", async () => {
    const other = [prompt[0]!, 104, 105];
    const scored = await complete({ prompt: [prompt, other], n: 2, max_tokens: 1, prompt_logprobs: 0 });
    const [a, b, c] = scored.choices.map((choice) => choice.prompt_logprobs!);
    expect(b).toEqual(a);
    expect(a).toHaveLength(prompt.length);
    expect(c).toHaveLength(3);
  });

  it("refuses prompt_logprobs with stream, as vLLM does", async () => {
    const response = await fetch(`${server.url}/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "tiny", prompt, max_tokens: 1, prompt_logprobs: 0, stream: true }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/prompt_logprobs is not supported when streaming/);
  });
});
