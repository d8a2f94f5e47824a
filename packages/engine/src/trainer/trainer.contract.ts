/**
 * The contract every `Trainer` backend meets, beside the protocol it checks, run against each
 * (trainer-contract.test.ts): the engine in this process, and the engine behind the HTTP trainer
 * server (http/). Nothing is skipped. Not shipped: it imports vitest.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderChat } from "../tokenizer/chat-template.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import type { BatchItem, Trainer } from "./protocol.ts";

/** A backend under test: a trainer on a fresh model of `TINY_CONFIG` with seed 7, and how to stop it. */
export interface TrainerFixture {
  trainer: Trainer;
  close(): Promise<void>;
}

/** The model every contract fixture starts from. */
export const TINY_CONFIG = {
  vocabSize: tokenizer.vocabSize,
  dModel: 32,
  nLayers: 1,
  nHeads: 4,
  dFF: 64,
  maxSeqLen: 48,
};

const prompt = renderChat([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
const reply = [...tokenizer.encode("ok"), tokenizer.eot];
const sft: BatchItem = {
  tokens: [...prompt, ...reply],
  mask: [...prompt.map(() => 0 as const), ...reply.map(() => 1 as const)],
};

/** Registers the contract suite for one backend. */
export function describeTrainerContract(name: string, start: () => Promise<TrainerFixture>): void {
  describe(`trainer contract: ${name}`, () => {
    let fixture: TrainerFixture;
    let dir: string;
    beforeAll(async () => {
      fixture = await start();
      dir = await mkdtemp(join(tmpdir(), "vf-trainer-contract-"));
    });
    afterAll(async () => {
      await fixture.close();
      await rm(dir, { recursive: true, force: true });
    });

    it("lowers the loss of a batch it trains on, and reports the protocol's metrics", async () => {
      const { trainer } = fixture;
      const before = await trainer.forward([sft], { type: "cross_entropy" });
      expect(before.numTokens).toBe(reply.length);
      expect(before.logprobs[0]).toHaveLength(sft.tokens.length);
      expect(before.mismatchKl).toBeNull();
      for (let i = 0; i < 5; i++) {
        await trainer.forwardBackward([sft], { type: "cross_entropy" });
        const step = await trainer.optimStep({ learningRate: 1e-2 });
        expect(step.step).toBe(i + 1);
        expect(step.gradNorm).toBeGreaterThan(0);
      }
      const after = await trainer.forward([sft], { type: "cross_entropy" });
      expect(after.loss).toBeLessThan(before.loss);
    });

    it("scores its own samples with a mismatch KL of 0 and a ratio of 1", async () => {
      const { trainer } = fixture;
      const { samples } = await trainer.sample({
        prompts: [prompt],
        numSamples: 2,
        params: { maxTokens: 6, seed: 3 },
      });
      const batch: BatchItem[] = samples[0]!.map((s) => ({
        tokens: [...prompt, ...s.tokens],
        mask: [...prompt.map(() => 0 as const), ...s.tokens.map(() => 1 as const)],
        samplerLogprobs: [...prompt.map(() => 0), ...s.logprobs],
        advantages: [...prompt.map(() => 0), ...s.tokens.map(() => 0.5)],
      }));
      const result = await trainer.forward(batch, { type: "masked_importance_sampling" });
      expect(result.mismatchKl).toBe(0);
      expect(result.maskedShare).toBe(0);
      expect(result.loss).toBeCloseTo(-0.5, 12);
    });

    it("saves weights that load back to the same predictions", async () => {
      const { trainer } = fixture;
      const saved = await trainer.saveWeights(join(dir, "weights"));
      expect(saved.path).toBe(join(dir, "weights"));
      const atSave = await trainer.forward([sft], { type: "cross_entropy" });
      await trainer.forwardBackward([sft], { type: "cross_entropy" });
      await trainer.optimStep({ learningRate: 1e-2 });
      expect((await trainer.forward([sft], { type: "cross_entropy" })).loss).not.toBe(atSave.loss);
      await trainer.loadWeights(join(dir, "weights"));
      expect((await trainer.forward([sft], { type: "cross_entropy" })).loss).toBe(atSave.loss);
    });

    it("saves a training state that resumes the next step exactly", async () => {
      const { trainer } = fixture;
      await trainer.forwardBackward([sft], { type: "cross_entropy" });
      await trainer.optimStep({ learningRate: 1e-2 });
      await trainer.saveState(join(dir, "state"));
      await trainer.forwardBackward([sft], { type: "cross_entropy" });
      const first = await trainer.optimStep({ learningRate: 1e-2 });
      const lossAfterFirst = (await trainer.forward([sft], { type: "cross_entropy" })).loss;
      await trainer.loadState(join(dir, "state"));
      await trainer.forwardBackward([sft], { type: "cross_entropy" });
      const again = await trainer.optimStep({ learningRate: 1e-2 });
      expect(again).toEqual(first);
      expect((await trainer.forward([sft], { type: "cross_entropy" })).loss).toBe(lossAfterFirst);
    });

    it("refuses a malformed batch, naming the item and field, and keeps serving", async () => {
      const { trainer } = fixture;
      const bad = { ...sft, mask: sft.mask.slice(1) };
      await expect(trainer.forwardBackward([sft, bad], { type: "cross_entropy" })).rejects.toThrow(
        /item 1: mask has \d+ entries but tokens has \d+/,
      );
      await expect(trainer.forwardBackward([sft], { type: "importance_sampling" })).rejects.toThrow(
        /samplerLogprobs/,
      );
      await expect(trainer.loadState(join(dir, "missing"))).rejects.toThrow(/cannot read/);
      expect((await trainer.forward([sft], { type: "cross_entropy" })).numTokens).toBe(reply.length);
    });
  });
}
