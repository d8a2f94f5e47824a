import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeAdvantages } from "../algorithm/advantages.ts";
import { lengthPenalties } from "../algorithm/length-penalty.ts";
import { type InferenceEndpoint, startLocalInference } from "../inference/inference-endpoint.ts";
import { VOWELS_ENV, writeTinyModel } from "../testing/index.ts";
import { type CollectBatchOptions, collectBatch, type TrainEnv } from "./collect-batch.ts";
import { PolicyClient } from "./policy-client.ts";
import { PromptSource } from "./prompt-source.ts";

let dir: string;
let inference: InferenceEndpoint;
let env: TrainEnv;
let rows: Awaited<ReturnType<TrainEnv["env"]["inputs"]>>["inputs"];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-collect-"));
  inference = await startLocalInference(await writeTinyModel(join(dir, "model"), { seed: 1 }));
  const loaded = await loadEnvironmentById(VOWELS_ENV, { args: { rows: 12 } });
  env = { id: loaded.id, env: loaded.env };
  rows = (await loaded.env.inputs({ split: "train", rolloutsPerExample: 1 })).inputs;
});
afterAll(async () => {
  await inference.close();
  await rm(dir, { recursive: true, force: true });
});

function options(overrides: Partial<CollectBatchOptions>): CollectBatchOptions {
  return {
    envs_E: [env],
    source: new PromptSource({ rows_E: [rows], seed: 0 }),
    client: new PolicyClient({ inner: inference.client, version: () => 0 }),
    model: inference.model,
    sampling: { max_tokens: 10, temperature: 1 },
    groups: 4,
    rolloutsPerExample: 4,
    oversamplingFactor: 1,
    thresholds: {},
    normalizeStd: false,
    maxConcurrent: 16,
    batchIndex: 0,
    seed: 0,
    ...overrides,
  };
}

describe("collecting a batch", () => {
  it("keeps the batch full when the difficulty filter drops groups, drawing more until it is", async () => {
    const batch = await collectBatch(options({ thresholds: { hardThreshold: 0.03 } }));
    const c = batch.counts;
    expect(batch.groups_P).toHaveLength(4);
    expect(batch.groups_P.every((g) => g.records_G.length === 4 && g.items_G_D.length === 4)).toBe(true);
    expect(c.kept).toBe(4);
    expect(c.tooHard).toBeGreaterThan(0); // the filter did drop groups...
    expect(batch.rounds).toBeGreaterThan(1); // ...and more were drawn to refill the batch
    expect(c.drawn).toBe(c.kept + c.tooEasy + c.tooHard + c.noSpread + c.errored + c.surplus);
    expect(batch.all_records).toHaveLength(c.drawn * 4);
    for (const group of batch.groups_P) {
      const rewards = group.records_G.map((r) => r.reward);
      expect(rewards.reduce((a, b) => a + b, 0) / 4).toBeGreaterThan(0.03);
      expect(Math.abs(group.advantages_G.reduce((a, b) => a + b, 0))).toBeLessThan(1e-12);
      expect(group.versions_G).toEqual([0, 0, 0, 0]);
    }
  });

  it("samples the same batch again from the same seed and batch index (what exact resume relies on)", async () => {
    const a = await collectBatch(options({ batchIndex: 3 }));
    const b = await collectBatch(options({ batchIndex: 3 }));
    const c = await collectBatch(options({ batchIndex: 4 }));
    const tokens = (batch: typeof a) =>
      batch.groups_P.map((g) => g.items_G_D.map((items) => items.map((i) => i.tokens)));
    expect(tokens(b)).toEqual(tokens(a));
    expect(tokens(c)).not.toEqual(tokens(a));
  });

  it("subtracts the length penalty before centring, from each rollout's own token counts", async () => {
    const weights = { output: 0.25, input: 0, turns: 0 };
    // the tiny model writes random bytes: stopping at any consonant or digit ends rollouts at
    // different lengths, and the vowels that score still get through
    const stop = [..."bcdfghjklmnpqrstvwxyzBCDFGHJKLMNPQRSTVWXYZ0123456789"];
    const sampling = { max_tokens: 10, temperature: 1, stop };
    const plain = await collectBatch(options({ batchIndex: 5, sampling }));
    const penalised = await collectBatch(options({ batchIndex: 5, sampling, lengthPenalty: weights }));
    let differ = false;
    penalised.groups_P.forEach((group, p) => {
      const rewards_G = group.records_G.map((r) => r.reward);
      expect(rewards_G).toEqual(plain.groups_P[p]!.records_G.map((r) => r.reward));
      const lengths_G = group.records_G.map((r) => ({
        outputTokens: r.token_usage!.output_tokens,
        inputTokens: r.token_usage!.input_tokens,
        turns: r.trajectory.length,
      }));
      const expected_G = computeAdvantages(rewards_G, {
        penalties_G: lengthPenalties(rewards_G, lengths_G, weights),
      });
      group.advantages_G.forEach((a, g) => {
        expect(a).toBeCloseTo(expected_G[g]!, 12);
      });
      if (group.advantages_G.some((a, g) => Math.abs(a - plain.groups_P[p]!.advantages_G[g]!) > 1e-9))
        differ = true;
    });
    expect(differ).toBe(true);
  });

  it("gives up with advice when batches' worth of groups keep nothing", async () => {
    const error = await collectBatch(
      options({ thresholds: { easyThreshold: 0 }, maxBarrenBatches: 2 }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(
      /8 groups drawn in a row gave no group worth training on \(8 drawn, 8 too easy/,
    );
    expect(error.message).toMatch(/vf doctor/);
  });
});
