// On-policy distillation's credit on a real batch: a tiny student samples from the engine's server,
// a tiny teacher (another engine server) scores each training sequence with prompt_logprobs.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "@vf-rl/core";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import { loadCheckpoint, scorePrompt, Transformer } from "@vf-rl/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InferenceEndpoint, startLocalInference } from "../inference/inference-endpoint.ts";
import { type CollectBatchOptions, collectBatch, type TrainEnv } from "../rollouts/collect-batch.ts";
import { PolicyClient } from "../rollouts/policy-client.ts";
import { PromptSource } from "../rollouts/prompt-source.ts";
import { TeacherScorer } from "../rollouts/teacher-scorer.ts";
import { VOWELS_ENV, writeTinyModel } from "../testing/index.ts";
import { distillBatch } from "./distillation.ts";

/** Every rollout of a group scores the same with rewards = [0.5]. */
const SCRIPTED_REWARDS_ENV = fileURLToPath(new URL("../testing/envs/scripted-rewards", import.meta.url));

let dir: string;
let student: InferenceEndpoint;
let teacher: InferenceEndpoint;
let teacherModel: Transformer;
let env: TrainEnv;
let rows: Awaited<ReturnType<TrainEnv["env"]["inputs"]>>["inputs"];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-distill-"));
  student = await startLocalInference(await writeTinyModel(join(dir, "student"), { seed: 1 }));
  const teacherDir = await writeTinyModel(join(dir, "teacher"), { seed: 2 });
  teacher = await startLocalInference(teacherDir);
  const { config, params } = await loadCheckpoint(teacherDir);
  teacherModel = new Transformer(config, { params });
  const loaded = await loadEnvironmentById(VOWELS_ENV, { args: { rows: 8 } });
  env = { id: loaded.id, env: loaded.env };
  rows = (await loaded.env.inputs({ split: "train", rolloutsPerExample: 1 })).inputs;
});
afterAll(async () => {
  await student.close();
  await teacher.close();
  await rm(dir, { recursive: true, force: true });
});

function collect(overrides: Partial<CollectBatchOptions> = {}) {
  return collectBatch({
    envs_E: [env],
    source: new PromptSource({ rows_E: [rows], seed: 0 }),
    client: new PolicyClient({ inner: student.client, version: () => 0 }),
    model: student.model,
    sampling: { max_tokens: 10, temperature: 1 },
    groups: 2,
    rolloutsPerExample: 4,
    oversamplingFactor: 1,
    thresholds: {},
    normalizeStd: false,
    maxConcurrent: 8,
    batchIndex: 0,
    seed: 0,
    ...overrides,
  });
}

const scorerOf = (server: InferenceEndpoint) => new TeacherScorer(server.client, server.model);

describe("on-policy distillation's credit", () => {
  it("is kl_coef × (teacher − sampler logprob) + reward_weight × the GRPO advantage, per sampled token", async () => {
    const batch = await collect();
    const scorer = scorerOf(teacher);
    const distilled = await distillBatch(batch, {
      klCoef: 2,
      rewardWeight: 0.5,
      score: (tokens) => scorer.score(tokens),
    });
    let gap = 0;
    let sampled = 0;
    distilled.groups_P.forEach((group, p) => {
      group.items_G_D.forEach((items_D, g) => {
        const grpo = batch.groups_P[p]!.advantages_G[g]!;
        for (const item of items_D) {
          // the teacher's logprobs computed here, in process, from its weights
          const teacher_T = [0, ...scorePrompt(teacherModel, item.tokens).map((s) => s.logprob)];
          const sampler_T = item.samplerLogprobs!;
          const expected = item.mask.map((m, t) =>
            m === 1 ? 2 * (teacher_T[t]! - sampler_T[t]!) + 0.5 * grpo : 0,
          );
          expect(item.advantages).toEqual(expected);
          item.mask.forEach((m, t) => {
            if (m === 1) {
              gap += sampler_T[t]! - teacher_T[t]!;
              sampled += 1;
            }
          });
        }
      });
    });
    expect(sampled).toBeGreaterThan(0);
    expect(distilled.teacher).toMatchObject({ tokens: sampled });
    expect(distilled.teacher!.kl).toBeCloseTo(gap / sampled, 12);
    expect(distilled.teacher!.kl).not.toBe(0); // two different models
  });

  it("is exactly zero, with a KL of 0, when the teacher is the student itself", async () => {
    const batch = await collect({ batchIndex: 1 });
    const scorer = scorerOf(student);
    const distilled = await distillBatch(batch, {
      klCoef: 1,
      rewardWeight: 0,
      score: (t) => scorer.score(t),
    });
    const advantages = distilled.groups_P.flatMap((g) => g.items_G_D.flat().flatMap((i) => i.advantages!));
    expect(advantages.length).toBeGreaterThan(0);
    expect(advantages.every((a) => a === 0)).toBe(true);
    expect(distilled.teacher!.kl).toBe(0);
  });

  it("keeps groups whose rollouts all scored the same, which the difficulty filter drops otherwise", async () => {
    const loaded = await loadEnvironmentById(SCRIPTED_REWARDS_ENV, { args: { rewards: [0.5], rows: 4 } });
    const flatEnv = { id: loaded.id, env: loaded.env };
    const flatRows = (await loaded.env.inputs({ split: "train", rolloutsPerExample: 1 })).inputs;
    const flat = { envs_E: [flatEnv], source: new PromptSource({ rows_E: [flatRows], seed: 0 }) };
    const dropped = await collect({ ...flat, maxBarrenBatches: 1 }).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(UserError);
    expect((dropped as Error).message).toMatch(/2 with no reward spread/);
    const kept = await collect({ ...flat, thresholds: { keepNoSpread: true } });
    expect(kept.groups_P).toHaveLength(2);
    expect(kept.counts.noSpread).toBe(0);
    expect(kept.groups_P.flatMap((g) => g.advantages_G)).toEqual(Array(8).fill(0));
  });
});
