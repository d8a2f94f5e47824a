import {
  type BatchItem,
  createLocalTrainer,
  type LocalTrainer,
  renderChat,
  type Trainer,
  tokenizer,
} from "@vf-rl/engine";
import { afterEach, describe, expect, it } from "vitest";
import { trainStep } from "./train-step.ts";
import { rolloutItems } from "./training-items.ts";

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
function twoTurnItems(advantage: number, answer = "ok"): BatchItem[] {
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
  const reply2 = [...tokenizer.encode(answer), tokenizer.eot];
  const built = rolloutItems(
    [
      {
        finish_reason: "stop",
        is_truncated: false,
        tokens: { prompt_ids: first, completion_ids: reply1, completion_logprobs: reply1.map(() => -5.6) },
      },
      {
        finish_reason: "stop",
        is_truncated: false,
        tokens: { prompt_ids: second, completion_ids: reply2, completion_logprobs: reply2.map(() => -5.6) },
      },
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
    const batch = [
      twoTurnItems(1, "ok"),
      twoTurnItems(-0.5, "no way"),
      twoTurnItems(0.25, "fine"),
      twoTurnItems(-0.75, "x"),
    ];
    const whole = await gradientsAtStep(await trainer());
    const r1 = await trainStep(whole.trainer, batch, { ...step, microBatchSize: 4 });
    const split = await gradientsAtStep(await trainer());
    const r2 = await trainStep(split.trainer, batch, { ...step, microBatchSize: 1 });
    expect([r1.microBatches, r2.microBatches]).toEqual([1, 4]);
    expect(r2.loss).toBeCloseTo(r1.loss, 10);
    expect(r2.entropy).toBeCloseTo(r1.entropy, 10);
    expect(r2.gradNorm).toBeCloseTo(r1.gradNorm, 6);
    expect(r1.trainedTokens).toBe(3 * 4 + 3 + 7 + 5 + 2); // "yo" + eot per rollout, then each answer + eot
    const g1 = whole.grads();
    const g2 = split.grads();
    const scale = Math.max(...g1.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    g1.forEach((g, i) => {
      expect(Math.abs(g - g2[i]!)).toBeLessThan(1e-5 * scale);
    });
  });
});

/** The trainer, with the gradient it held when optimStep was called kept for the test. */
async function gradientsAtStep(t: LocalTrainer): Promise<{ trainer: Trainer; grads: () => Float32Array }> {
  let grads = new Float32Array(0);
  const trainer: Trainer = {
    forwardBackward: (batch, loss) => t.forwardBackward(batch, loss),
    forward: (batch, loss) => t.forward(batch, loss),
    optimStep: (params) => {
      grads = Float32Array.from(t.model.grads);
      return t.optimStep(params);
    },
    saveWeights: (dir) => t.saveWeights(dir),
    loadWeights: (dir) => t.loadWeights(dir),
    saveState: (dir) => t.saveState(dir),
    loadState: (dir) => t.loadState(dir),
    sample: (request) => t.sample(request),
    close: () => t.close(),
  };
  return { trainer, grads: () => grads };
}
