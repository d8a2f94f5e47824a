// collectBatch with an [env.curriculum]: a difficulty pool fed by each finished group's mean reward,
// and admission gates whose rejections are replaced by new draws. The real engine samples.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RolloutInput } from "@vf-rl/core";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GateConfig, RowSamplerConfig } from "../config/curriculum-config.ts";
import { type InferenceEndpoint, startLocalInference } from "../inference/inference-endpoint.ts";
import { VOWELS_ENV, writeTinyModel } from "../testing/index.ts";
import { type CollectBatchOptions, collectBatch, type TrainEnv } from "./collect-batch.ts";
import { PolicyClient } from "./policy-client.ts";
import { PromptSource } from "./prompt-source.ts";

let dir: string;
let inference: InferenceEndpoint;
/** vowels with 12 rows, of which the first 4 score 1 whatever the model writes. */
let env: TrainEnv;
let rows: RolloutInput[];
let solved: Set<number>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-curriculum-"));
  inference = await startLocalInference(await writeTinyModel(join(dir, "model"), { seed: 1 }));
  const loaded = await loadEnvironmentById(VOWELS_ENV, { args: { rows: 12, solved: 4 } });
  env = { id: loaded.id, env: loaded.env };
  rows = (await loaded.env.inputs({ split: "train", rolloutsPerExample: 1 })).inputs;
  solved = new Set(rows.filter((row) => row.answer === "solved").map((row) => row.exampleId));
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

/** The example id of each group drawn for a batch, in draw order. */
const groupIds = (records: { example_id: number; rollout_index: number }[]): number[] =>
  records.filter((r) => r.rollout_index === 0).map((r) => r.example_id);

/** Collects `batches` batches from one source; returns the rows each drew. */
async function drawBatches(sampler: RowSamplerConfig, batches: number) {
  const source = new PromptSource({
    rows_E: [rows],
    seed: 0,
    samplers_E: [{ envId: "vowels", config: sampler }],
  });
  const drawn_B: number[][] = [];
  let last: Awaited<ReturnType<typeof collectBatch>> | undefined;
  for (let b = 0; b < batches; b++) {
    last = await collectBatch(options({ source, batchIndex: b }));
    drawn_B.push(groupIds(last.all_records));
  }
  return { drawn_B, seen: last!.rows_E[0]! };
}

describe("a batch with a curriculum", () => {
  it("retires the rows a difficulty pool finds solved (easy weight 0); the standard order keeps drawing them", async () => {
    const pools = {
      hard: { threshold: 0.25, weight: 1 },
      normal: { threshold: 0.75, weight: 1 },
      easy: { threshold: 1, weight: 0 },
    };
    const pool = await drawBatches({ type: "difficulty_pool", pools }, 6);
    const standard = await drawBatches({ type: "standard" }, 6);

    // a solved row scores 1 on every rollout: once a batch has seen it, no later batch draws it
    const solvedSeenBefore = (drawn_B: number[][], b: number) =>
      new Set(
        drawn_B
          .slice(0, b)
          .flat()
          .filter((id) => solved.has(id)),
      );
    const drawnAgain = (drawn_B: number[][]) =>
      drawn_B.flatMap((ids, b) => ids.filter((id) => solvedSeenBefore(drawn_B, b).has(id)));
    expect(solvedSeenBefore(pool.drawn_B, 6).size).toBe(4);
    expect(drawnAgain(pool.drawn_B)).toEqual([]);
    expect(drawnAgain(standard.drawn_B).length).toBeGreaterThan(0);

    expect(pool.seen).toMatchObject({ rows: 12, retired: 4 });
    expect(pool.seen.pools.easy).toBe(4);
    expect(standard.seen).toEqual({ rows: 12, seen: 12, pools: {}, retired: 0 });
  });

  it("rejects groups whose advantages all lie in a gate's range, and draws more until the batch is full", async () => {
    // the tiny model's groups mostly differ by one rollout: advantages of a few hundredths
    const narrow: GateConfig = { type: "advantage_range", reject_min: -0.09, reject_max: 0.09 };
    const gates_E = [
      { narrow, never: { type: "advantage_range", reject_min: 5, reject_max: 6 } as GateConfig },
    ];
    const gated = await collectBatch(options({ gates_E, batchIndex: 1 }));
    const c = gated.counts;
    expect(gated.groups_P).toHaveLength(4);
    expect(c.rejected).toBeGreaterThan(0); // the gate did reject groups...
    expect(gated.rounds).toBeGreaterThan(1); // ...and more were drawn in their place
    expect(gated.rejected_E).toEqual([{ narrow: c.rejected, never: 0 }]);
    for (const group of gated.groups_P) {
      expect(group.advantages_G.some((a) => Math.abs(a) > 0.09)).toBe(true);
    }
    // the same draws without the gate train on groups it would have rejected
    const plain = await collectBatch(options({ batchIndex: 1 }));
    expect(plain.groups_P.some((g) => g.advantages_G.every((a) => Math.abs(a) <= 0.09))).toBe(true);
  });
});
