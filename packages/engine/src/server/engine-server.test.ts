import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packSequences } from "../packed-batch.ts";
import { renderChat } from "../tokenizer/chat-template.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { type EngineServer, startEngineServer } from "./engine-server.ts";
import { randomModel, type VllmChatRequest, vllmChat } from "./test-support.ts";

const model = randomModel();
let server: EngineServer;
let client: OpenAI;
const messages = [{ role: "user" as const, content: "Reverse this text: hello" }];

beforeAll(async () => {
  server = await startEngineServer({ model, modelName: "tiny" });
  client = new OpenAI({ baseURL: server.url, apiKey: "EMPTY", maxRetries: 0 });
});
afterAll(() => server.close());

/** log-softmax of the model's logits for each token of `completion` after `prompt`. */
function forwardLogprobs(prompt: number[], completion: number[]): number[] {
  const sequence = [...prompt, ...completion];
  const rows = completion.map((_, i) => prompt.length - 1 + i);
  const logits = model.forward(packSequences([sequence], rows));
  const V = model.config.vocabSize;
  return completion.map((token, i) => {
    let max = Number.NEGATIVE_INFINITY;
    for (let v = 0; v < V; v++) max = Math.max(max, logits[i * V + v]!);
    let sum = 0;
    for (let v = 0; v < V; v++) sum += Math.exp(logits[i * V + v]! - max);
    return logits[i * V + token]! - (max + Math.log(sum));
  });
}

/** A substring of `text` of `length` printable ASCII characters, starting at or after `from`. */
function asciiPiece(text: string, from: number, length: number): string {
  for (let i = from; i + length <= text.length; i++) {
    const piece = text.slice(i, i + length);
    if (/^[\x20-\x7e]+$/.test(piece)) return piece;
  }
  throw new Error(`no ASCII piece of ${length} characters in ${JSON.stringify(text)}`);
}

describe("the engine server, through the openai package", () => {
  it("lists its model and answers /health", async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["tiny"]);
    const health = await fetch(server.url.replace(/\/v1$/, "/health"));
    expect(await health.json()).toEqual({ status: "ok" });
  });

  it("completes a chat, with vLLM's token fields, and the same seed gives the same answer", async () => {
    const request: VllmChatRequest = {
      model: "tiny",
      messages,
      max_tokens: 20,
      seed: 3,
      return_token_ids: true,
    };
    const a = await vllmChat(client, request);
    const b = await vllmChat(client, request);
    expect(b.choices[0]!.message.content).toBe(a.choices[0]!.message.content);
    expect(a.prompt_token_ids).toEqual(renderChat(messages, { addGenerationPrompt: true }));
    const ids = a.choices[0]!.token_ids!;
    expect(tokenizer.decode(ids, { skipSpecial: true })).toBe(a.choices[0]!.message.content);
    expect(a.usage).toEqual({
      prompt_tokens: a.prompt_token_ids!.length,
      completion_tokens: ids.length,
      total_tokens: a.prompt_token_ids!.length + ids.length,
    });
    expect(["stop", "length"]).toContain(a.choices[0]!.finish_reason);
  });

  it("returns logprobs equal to a forward pass's, and the most likely alternatives", async () => {
    const response = await vllmChat(client, {
      model: "tiny",
      messages,
      max_tokens: 16,
      seed: 5,
      logprobs: true,
      top_logprobs: 3,
    });
    const choice = response.choices[0]!;
    const content = choice.logprobs!.content!;
    const ids = choice.token_ids!;
    expect(content).toHaveLength(ids.length);
    const expected = forwardLogprobs(response.prompt_token_ids!, ids);
    content.forEach((entry, i) => {
      expect(entry.logprob).toBe(expected[i]); // bit for bit: same kernels, temperature 1
      expect(entry.top_logprobs).toHaveLength(3);
      expect(entry.top_logprobs[0]!.logprob).toBeGreaterThanOrEqual(entry.logprob);
      if (ids[i]! < 128) expect(entry.token).toBe(String.fromCharCode(ids[i]!));
      expect(entry.bytes).toEqual(ids[i]! < 256 ? [ids[i]] : null);
    });
  });

  it("gives n choices, the first being the one a single-choice request with that seed gives", async () => {
    const many = await client.chat.completions.create({
      model: "tiny",
      messages,
      max_tokens: 24,
      n: 3,
      seed: 9,
    });
    const one = await client.chat.completions.create({ model: "tiny", messages, max_tokens: 24, seed: 9 });
    expect(many.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(many.choices[0]!.message.content).toBe(one.choices[0]!.message.content);
    expect(new Set(many.choices.map((c) => c.message.content)).size).toBeGreaterThan(1);
    expect(many.usage!.completion_tokens).toBeGreaterThan(one.usage!.completion_tokens);
  });

  it("stops at a stop string, which the text leaves out", async () => {
    const base: VllmChatRequest = { model: "tiny", messages, max_tokens: 40, seed: 11, ignore_eos: true };
    const full = (await vllmChat(client, base)).choices[0]!.message.content!;
    const stop = asciiPiece(full, 8, 2);
    const cut = await vllmChat(client, { ...base, stop });
    expect(cut.choices[0]!.message.content).toBe(full.slice(0, full.indexOf(stop)));
    expect(cut.choices[0]!.finish_reason).toBe("stop");
    expect(cut.choices[0]!.stop_reason).toBe(stop);
  });

  it("streams the same text as a whole answer, then a usage chunk", async () => {
    const request = { model: "tiny", messages, max_tokens: 30, seed: 13, n: 2 };
    const whole = await client.chat.completions.create(request);
    const stream = await client.chat.completions.create({ ...request, stream: true });
    const texts = ["", ""];
    const finish: (string | null)[] = [null, null];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        texts[choice.index] += choice.delta.content ?? "";
        finish[choice.index] ??= choice.finish_reason;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(texts).toEqual(whole.choices.map((c) => c.message.content));
    expect(finish).toEqual(whole.choices.map((c) => c.finish_reason));
    expect(usage).toEqual(whole.usage);
  });

  it("streams up to a stop string without ever sending it", async () => {
    const base: VllmChatRequest = { model: "tiny", messages, max_tokens: 100, seed: 17, ignore_eos: true };
    const full = (await vllmChat(client, base)).choices[0]!.message.content!;
    const stop = asciiPiece(full, 10, 3);
    const streaming: OpenAI.ChatCompletionCreateParamsStreaming = { ...base, stop, stream: true };
    let text = "";
    for await (const chunk of await client.chat.completions.create(streaming)) {
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(text).toBe(full.slice(0, full.indexOf(stop)));
  });

  it("answers concurrent requests exactly as it answers them one at a time", async () => {
    const request = (seed: number) =>
      vllmChat(client, { model: "tiny", messages, max_tokens: 32, seed, temperature: 0.9, top_k: 40 });
    const sequential: string[] = [];
    for (let seed = 0; seed < 8; seed++) sequential.push((await request(seed)).choices[0]!.message.content!);
    const concurrent = await Promise.all(Array.from({ length: 8 }, (_, seed) => request(seed)));
    expect(concurrent.map((r) => r.choices[0]!.message.content)).toEqual(sequential);
  });

  it("completes raw text, with legacy logprobs and token ids", async () => {
    const response = (await client.completions.create({
      model: "tiny",
      prompt: ["<|user|>hi<|eot|><|assistant|>", "abc"],
      max_tokens: 8,
      n: 2,
      logprobs: 2,
      seed: 1,
    })) as OpenAI.Completion & { choices: Array<{ token_ids: number[]; prompt_token_ids: number[] }> };
    expect(response.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    const first = response.choices[0]!;
    expect(first.prompt_token_ids).toEqual(
      renderChat([{ role: "user", content: "hi" }], { addGenerationPrompt: true }),
    );
    expect(response.choices[2]!.prompt_token_ids).toEqual([tokenizer.bos, 97, 98, 99]);
    expect(first.logprobs!.token_logprobs).toHaveLength(first.token_ids.length);
    expect(Object.keys(first.logprobs!.top_logprobs![0]!).length).toBeLessThanOrEqual(2);
    expect(first.text).toBe(tokenizer.decode(first.token_ids, { skipSpecial: true }));
  });

  it("streams raw text completions", async () => {
    const request = { model: "tiny", prompt: "hello", max_tokens: 12, seed: 2 };
    const whole = await client.completions.create(request);
    let text = "";
    for await (const chunk of await client.completions.create({ ...request, stream: true })) {
      text += chunk.choices[0]?.text ?? "";
    }
    expect(text).toBe(whole.choices[0]!.text);
  });
});
