// examples/rl-loop.ts runs: a few GRPO steps of a tiny fresh model on the toy `vowels` environment,
// against the engine's server, with the weights handed over after every step.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VOWELS_ENV, writeTinyModel } from "@vf-rl/train/testing";
import { describe, expect, it } from "vitest";
import { rlLoop } from "./rl-loop.ts";

describe("the GRPO loop example", () => {
  it("samples, scores, trains and hands the weights to the server, step after step", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-rl-loop-"));
    try {
      const lines: string[] = [];
      const { rewards } = await rlLoop({
        envId: VOWELS_ENV,
        model: await writeTinyModel(join(dir, "model"), { seed: 4 }),
        steps: 3,
        prompts: 4,
        groupSize: 4,
        learningRate: 3e-3,
        maxTokens: 12,
        temperature: 1,
        outDir: join(dir, "weights"),
        log: (line) => lines.push(line),
      });
      expect(rewards).toHaveLength(3);
      for (const reward of rewards) expect(reward).toBeGreaterThanOrEqual(0);
      expect(lines[0]).toMatch(
        /^step 1\/3 {2}reward [\d.]+ {2}loss -?[\d.]+ {2}entropy [\d.]+ {2}mismatch_kl /,
      );
      // the first batch was sampled by the trainer's own weights: sampler and trainer agree exactly
      expect(lines[0]).toContain("mismatch_kl 0.0e+0");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
