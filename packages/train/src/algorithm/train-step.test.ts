import { type BatchItem, createLocalTrainer, type LocalTrainer, renderChat, tokenizer } from "@vf/engine";
import { afterEach, describe, expect, it } from "vitest";
import { rolloutItems } from "./training-items.ts";
import { trainStep } from "./train-step.ts";

const config = { vocabSize: tokenizer.vocabSize, dModel: 32, nLayers: 1, nHeads: 4, dFF: 64, maxSeqLen: 96 };
const trainers: LocalTrainer[] = [];
afterEach(async () => {
  await Promise.all(trainers.splice(0).map((t) => t.close()));
});

async function trainer(): Promise<LocalTrainer> {
  const t = await createLocalTrainer({ config, seed: 5 });
  trainers.push(t);
  return t;
}

/** A two-turn rollout on the engine's chat template: the user's second message is environment text. */
function twoTurnItems(advantage: number): BatchItem[] {
  const first = renderChat([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
  const reply1 = [...tokenizer.encode("yo"), tokenizer.eot];
  const second = renderChat(
    [
      { role: "user", content: "hi" },
      { role: "assistant", content: "yo" },
      { role: "user", content: "again" },
    ],
    { addGenerationPrompt: true },
  );
  const reply2 = [...tokenizer.encode("ok"), tokenizer.eot];
  const built = rolloutItems(
    [
      { finish_reason: "stop", is_truncated: false, tokens: { prompt_ids: first, completion_ids: reply1, completion_logprobs: reply1.map(() => -5.6) } },
      { finish_reason: "stop", is_truncated: false, tokens: { prompt_ids: second, completion_ids: reply2, completion_logprobs: reply2.map(() => -5.6) } },
    ],
    advantage,
  );
  if (!built.ok) throw new Error(built.reason);
  return built.items_D;
}

const step = { microBatchSize: 1, loss: { type: "importance_sampling" } as const, adam: { learningRate: 0 } };

describe("a training step", () => {
  it("gives masked tokens (prompt, environment reply) no gradient: their logprobs and advantages change nothing", async () => {
    const items = twoTurnItems(1);
    expect(items).toHaveLength(1); // the chat template is prefix-monotonic: one sequence
    const mask = items[0]!.mask;
    expect(mask.filter((m) => m === 1)).toHaveLength(6);

    const a = await trainer();
    await a.forwardBackward(items, step.loss);
    const grads = Float32Array.from(a.model.grads);
    const result = await a.forward(items, step.loss);
    mask.forEach((m, t) => {
      if (m === 0) expect(result.logprobs[0]![t]).toBe(0); // no output row: nothing is predicted there
    });

    // garbage wherever the mask is 0: huge advantages and logprobs must not reach the gradient
    const tampered = items.map((item) => ({
      ...item,
      advantages: item.advantages!.map((v, t) => (item.mask[t] === 0 ? 1e6 : v)),
      samplerLogprobs: item.samplerLogprobs!.map((v, t) => (item.mask[t] === 0 ? -1e6 : v)),
    }));
    const b = await trainer();
    await b.forwardBackward(tampered, step.loss);
    expect(Float32Array.from(b.model.grads)).toEqual(grads);
    expect(grads.some((g) => g !== 0)).toBe(true);
  });

  it("takes the same step whatever the micro-batch size: the loss is a token mean over the whole batch", async () => {
    const batch = [twoTurnItems(1), twoTurnItems(-0.5), twoTurnItems(0.25), twoTurnItems(-0.75)];
    const whole = await trainer();
    const r1 = await trainStep(whole, batch, { ...step, microBatchSize: 4 });
    const gWhole = Float32Array.from(whole.model.grads);
    const split = await trainer();
    const r2 = await trainStep(split, batch, { ...step, microBatchSize: 1 });
    expect(r2.microBatches).toBe(4);
    expect(r1.microBatches).toBe(1);
    expect(r2.loss).toBeCloseTo(r1.loss, 10);
    expect(r2.entropy).toBeCloseTo(r1.entropy, 10);
    expect(r2.gradNorm).toBeCloseTo(r1.gradNorm, 6);
    expect(r1.trainedTokens).toBe(24);
  });
});
