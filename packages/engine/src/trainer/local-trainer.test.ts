import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BatchError, CheckpointError, SamplingError } from "../errors.ts";
import { renderChat } from "../tokenizer/chat-template.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { createLocalTrainer } from "./local-trainer.ts";
import type { BatchItem } from "./protocol.ts";

const config = { vocabSize: 263, dModel: 32, nLayers: 2, nHeads: 4, dFF: 64, maxSeqLen: 48 };

const prompt = renderChat([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
const reply = [...tokenizer.encode("hello world"), tokenizer.eot];
const sft: BatchItem = {
  tokens: [...prompt, ...reply],
  mask: [...prompt.map(() => 0 as const), ...reply.map(() => 1 as const)],
};

describe("the local trainer", () => {
  it("learns a reply by supervised fine-tuning, then samples it back", async () => {
    const trainer = await createLocalTrainer({ config, seed: 1 });
    const first = await trainer.forwardBackward([sft], { type: "cross_entropy" });
    expect(first.numTokens).toBe(12);
    expect(first.loss).toBeCloseTo(Math.log(263), 0); // a fresh model guesses uniformly
    await trainer.optimStep({ learningRate: 1e-2 });
    for (let step = 0; step < 60; step++) {
      await trainer.forwardBackward([sft], { type: "cross_entropy" });
      await trainer.optimStep({ learningRate: 1e-2, gradClipNorm: 1 });
    }
    const last = await trainer.forward([sft], { type: "cross_entropy" });
    expect(last.loss).toBeLessThan(0.05);

    const greedy = await trainer.sample({ prompts: [prompt], params: { temperature: 0 } });
    expect(greedy.samples[0]![0]).toMatchObject({
      text: "hello world",
      finishReason: "stop",
      stopReason: null,
    });
    expect(greedy.samples[0]![0]!.tokens).toEqual(reply);

    const cut = await trainer.sample({ prompts: [prompt], params: { temperature: 0, stop: ["wor"] } });
    expect(cut.samples[0]![0]).toMatchObject({ text: "hello ", finishReason: "stop", stopReason: "wor" });
    expect(cut.samples[0]![0]!.tokens).toEqual(tokenizer.encode("hello wor"));
  });

  it("sees its own samples with a mismatch KL of exactly 0 (sampler and trainer logprobs agree bit for bit)", async () => {
    const trainer = await createLocalTrainer({ config, seed: 2 });
    const { samples } = await trainer.sample({ prompts: [prompt], numSamples: 3, params: { maxTokens: 10 } });
    const batch: BatchItem[] = samples[0]!.map((s) => ({
      tokens: [...prompt, ...s.tokens],
      mask: [...prompt.map(() => 0 as const), ...s.tokens.map(() => 1 as const)],
      samplerLogprobs: [...prompt.map(() => 0), ...s.logprobs],
      advantages: [...prompt.map(() => 0), ...s.tokens.map(() => 1)],
    }));
    const result = await trainer.forward(batch, { type: "importance_sampling" });
    expect(result.mismatchKl).toBe(0);
    expect(result.loss).toBe(-1); // −mean(r·A) with r = 1 and A = 1
    for (const [i, item] of batch.entries()) {
      expect(result.logprobs[i]!.slice(prompt.length)).toEqual(item.samplerLogprobs!.slice(prompt.length));
    }
  });

  it("drops tokens whose ratio leaves the band, and reports their share", async () => {
    const trainer = await createLocalTrainer({ config, seed: 3 });
    const item: BatchItem = {
      ...sft,
      samplerLogprobs: sft.tokens.map((_, t) => (t < prompt.length ? 0 : t % 2 ? Math.log(1 / 263) : -40)), // near uniform: r ≈ 1; -40: r ≈ e^34
      advantages: sft.tokens.map((_, t) => (t < prompt.length ? 0 : 1)),
    };
    const result = await trainer.forwardBackward([item], { type: "masked_importance_sampling" });
    expect(result.maskedShare).toBeGreaterThan(0.3);
    expect(result.maskedShare).toBeLessThan(0.7);
    expect(result.mismatchKl).toBeGreaterThan(1);
  });

  it("is deterministic: the same seed and batches give bit-identical losses and weights", async () => {
    const run = async (): Promise<{ losses: number[]; params: Float32Array }> => {
      const trainer = await createLocalTrainer({ config, seed: 4 });
      const losses: number[] = [];
      for (let step = 0; step < 4; step++) {
        losses.push((await trainer.forwardBackward([sft, sft], { type: "cross_entropy" })).loss);
        await trainer.optimStep({ learningRate: 3e-3, weightDecay: 0.1, gradClipNorm: 1 });
      }
      return { losses, params: Float32Array.from(trainer.model.params) };
    };
    const [a, b] = [await run(), await run()];
    expect(b.losses).toEqual(a.losses);
    expect(b.params).toEqual(a.params);
  });

  it("saves weights that a new trainer loads and samples identically", async () => {
    const trainer = await createLocalTrainer({ config, seed: 5 });
    await trainer.forwardBackward([sft], { type: "cross_entropy" });
    await trainer.optimStep({ learningRate: 1e-2 });
    const dir = await mkdtemp(join(tmpdir(), "vf-engine-trainer-"));
    expect(await trainer.saveWeights(dir)).toEqual({ path: dir });
    const loaded = await createLocalTrainer({ checkpoint: dir });
    const request = { prompts: [prompt], params: { maxTokens: 8, seed: 1 } };
    expect(await loaded.sample(request)).toEqual(await trainer.sample(request));
  });

  it("refuses weights saved for another config, naming both", async () => {
    const other = await createLocalTrainer({ config: { ...config, dFF: 48 } });
    const dir = await mkdtemp(join(tmpdir(), "vf-engine-trainer-"));
    await other.saveWeights(dir);
    const trainer = await createLocalTrainer({ config });
    await expect(trainer.loadWeights(dir)).rejects.toThrow(CheckpointError);
    await expect(trainer.loadWeights(dir)).rejects.toThrow(/"dFF":48.*"dFF":64/);
  });

  it("rejects malformed batches with a BatchError naming the item and field", async () => {
    const trainer = await createLocalTrainer({ config });
    const short = { tokens: [1, 2, 3], mask: [0, 1] as (0 | 1)[] };
    await expect(trainer.forwardBackward([sft, short], { type: "cross_entropy" })).rejects.toMatchObject({
      name: "BatchError",
      item: 1,
      field: "mask",
    });
    const error = await trainer
      .forwardBackward([sft], { type: "importance_sampling" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchError);
    expect((error as Error).message).toMatch(/needs samplerLogprobs: add them/);
    await expect(
      trainer.forwardBackward([{ tokens: [1, 2], mask: [1, 1] }], { type: "cross_entropy" }),
    ).rejects.toThrow(/mask\[0\] is 1 but the first token has no context/);
  });
});

describe("the local trainer with worker threads", () => {
  const batch = Array.from({ length: 6 }, (_, i) => ({
    tokens: [...prompt, ...tokenizer.encode(`reply number ${i}`.repeat(1 + (i % 2))), tokenizer.eot],
    mask: [] as (0 | 1)[],
  })).map((item) => ({ ...item, mask: item.tokens.map((_, t) => (t < prompt.length ? 0 : 1) as 0 | 1) }));

  async function train(threads: number): Promise<{ losses: number[]; params: Float32Array }> {
    const trainer = await createLocalTrainer({ config, seed: 6, threads });
    const losses: number[] = [];
    for (let step = 0; step < 3; step++) {
      losses.push((await trainer.forwardBackward(batch, { type: "cross_entropy" })).loss);
      await trainer.optimStep({ learningRate: 3e-3, gradClipNorm: 1 });
    }
    const params = Float32Array.from(trainer.model.params);
    await trainer.close();
    return { losses, params };
  }

  it("splits batches over two workers, repeatably and in agreement with one thread", async () => {
    const [a, b, single] = [await train(2), await train(2), await train(1)];
    expect(b.losses).toEqual(a.losses); // bit-identical for a given thread count
    expect(b.params).toEqual(a.params);
    for (const [i, loss] of a.losses.entries()) expect(loss).toBeCloseTo(single.losses[i]!, 5); // rounding differs only
  });

  it("runs calls one at a time in call order, even when they are not awaited", async () => {
    const sequential = await train(2);
    const trainer = await createLocalTrainer({ config, seed: 6, threads: 2 });
    const calls: Promise<unknown>[] = [];
    for (let step = 0; step < 3; step++) {
      calls.push(trainer.forwardBackward(batch, { type: "cross_entropy" }));
      calls.push(trainer.optimStep({ learningRate: 3e-3, gradClipNorm: 1 }));
    }
    const results = await Promise.all(calls);
    expect(results.filter((_, i) => i % 2 === 0).map((r) => (r as { loss: number }).loss)).toEqual(
      sequential.losses,
    );
    expect(Float32Array.from(trainer.model.params)).toEqual(sequential.params);
    await trainer.close();
    await trainer.close();
    await expect(trainer.forward(batch, { type: "cross_entropy" })).rejects.toThrow(/this trainer is closed/);
  });

  it("returns each item's logprobs in batch order", async () => {
    const threaded = await createLocalTrainer({ config, seed: 7, threads: 2 });
    const single = await createLocalTrainer({ config, seed: 7 });
    const [x, y] = [
      await threaded.forward(batch, { type: "cross_entropy" }),
      await single.forward(batch, { type: "cross_entropy" }),
    ];
    await threaded.close();
    for (const [i, row] of x.logprobs.entries()) {
      for (const [t, lp] of row.entries()) expect(lp).toBeCloseTo(y.logprobs[i]![t]!, 5);
    }
    expect(x.numTokens).toBe(y.numTokens);
  });
});

describe("sampling through the trainer", () => {
  it("rejects a bad request with a SamplingError naming the field", async () => {
    const trainer = await createLocalTrainer({ config });
    const error = await trainer.sample({ prompts: [prompt], params: { topP: 0 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SamplingError);
    expect((error as Error).message).toMatch(/invalid sample request: params\.topP: .*: fix these fields/);
  });

  it("gives numSamples completions per prompt, each from its own stream of the seed", async () => {
    const trainer = await createLocalTrainer({ config, seed: 8 });
    const { samples } = await trainer.sample({
      prompts: [prompt, prompt],
      numSamples: 3,
      params: { maxTokens: 6, seed: 4 },
    });
    expect(samples.map((s) => s.length)).toEqual([3, 3]);
    expect(samples[1]).toEqual(samples[0]); // same prompt, same seed: the same three completions
    expect(new Set(samples[0]!.map((s) => s.tokens.join(","))).size).toBeGreaterThan(1);
  });
});
