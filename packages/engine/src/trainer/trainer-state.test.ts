import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointError } from "../errors.ts";
import { renderChat } from "../tokenizer/chat-template.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { createLocalTrainer } from "./local-trainer.ts";
import type { BatchItem } from "./protocol.ts";

const config = { vocabSize: 263, dModel: 32, nLayers: 1, nHeads: 4, dFF: 64, maxSeqLen: 48 };
const prompt = renderChat([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
const reply = [...tokenizer.encode("hello"), tokenizer.eot];
const item: BatchItem = {
  tokens: [...prompt, ...reply],
  mask: [...prompt.map(() => 0 as const), ...reply.map(() => 1 as const)],
};
const adam = { learningRate: 1e-2, weightDecay: 0.1, gradClipNorm: 1 };

describe("trainer state (saveState / loadState)", () => {
  it("resumes training bit for bit: moments and step count come back with the weights", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-trainer-state-"));
    try {
      const a = await createLocalTrainer({ config, seed: 3 });
      for (let step = 0; step < 3; step++) {
        await a.forwardBackward([item], { type: "cross_entropy" });
        await a.optimStep(adam);
      }
      await a.saveState(dir);
      await a.forwardBackward([item], { type: "cross_entropy" });
      const next = await a.optimStep(adam);

      const b = await createLocalTrainer({ config, seed: 99 });
      await b.loadState(dir);
      await b.forwardBackward([item], { type: "cross_entropy" });
      const resumed = await b.optimStep(adam);
      expect(resumed.step).toBe(next.step);
      expect(resumed.step).toBe(4);
      expect(b.model.params).toEqual(a.model.params);

      // weights alone restart the moments: the next update differs
      const c = await createLocalTrainer({ config, seed: 99 });
      await c.loadWeights(dir);
      await c.forwardBackward([item], { type: "cross_entropy" });
      expect((await c.optimStep(adam)).step).toBe(1);
      expect(c.model.params).not.toEqual(a.model.params);
      await Promise.all([a.close(), b.close(), c.close()]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a folder without optimizer state, saying to use saveState", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-trainer-state-"));
    try {
      const trainer = await createLocalTrainer({ config });
      await trainer.saveWeights(dir);
      const error = await trainer.loadState(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toMatch(/optimizer\.safetensors .*saveState/);
      await trainer.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
