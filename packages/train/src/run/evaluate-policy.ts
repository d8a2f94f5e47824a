/**
 * Evaluation while training: each environment's eval split (its first `num_examples` rows, the same
 * rows every time) against the policy the inference server holds, with the training sampling args
 * (overridden by [eval.sampling]) and a seed fixed per policy version, so a resumed run's
 * evaluations repeat the unbroken run's.
 */
import { evaluate, type SamplingArgs } from "@vf-rl/core";
import type { EvalConfig } from "../config/train-config.ts";
import { serverRunner, type TrainEnv } from "../rollouts/collect-batch.ts";
import { mixSeed, type PolicyClient } from "../rollouts/policy-client.ts";
import type { EvalRow } from "./metrics-row.ts";

/** Options of `evaluatePolicy`. */
export interface EvaluatePolicyOptions {
  envs_E: readonly TrainEnv[];
  client: PolicyClient;
  model: string;
  sampling: SamplingArgs;
  eval: EvalConfig;
  maxConcurrent: number;
  /** The policy being evaluated (steps done). */
  version: number;
  seed: number;
  signal?: AbortSignal;
}

/** One row per environment; none when cancelled before an environment finished. */
export async function evaluatePolicy(options: EvaluatePolicyOptions): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  for (const [index, { id, env, server }] of options.envs_E.entries()) {
    const started = performance.now();
    const sampling = { ...options.sampling, ...options.eval.sampling };
    const result = await evaluate(env, {
      ...(server ? { runUnit: serverRunner(server, options.client, options.model, sampling) } : {}),
      clients: options.client.forGroup(mixSeed(options.seed, 0xe7a1, index, options.version)),
      model: options.model,
      sampling,
      numExamples: options.eval.num_examples,
      rolloutsPerExample: options.eval.rollouts_per_example,
      maxConcurrent: options.maxConcurrent,
      maxRetries: 2,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (result.cancelled) break;
    const rewards = result.records.map((r) => r.reward);
    rows.push({
      kind: "eval",
      step: options.version,
      time: Date.now() / 1000,
      env: id,
      ...rewardInterval(rewards),
      rollouts: rewards.length,
      time_ms: performance.now() - started,
    });
  }
  return rows;
}

/** Mean, standard deviation and the 95% interval of the mean (normal approximation). */
export function rewardInterval(rewards: readonly number[]): {
  reward_mean: number;
  reward_std: number;
  ci95_low: number;
  ci95_high: number;
} {
  const n = rewards.length;
  if (n === 0) return { reward_mean: 0, reward_std: 0, ci95_low: 0, ci95_high: 0 };
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1) : 0;
  const half = 1.96 * Math.sqrt(variance / n);
  return {
    reward_mean: mean,
    reward_std: Math.sqrt(variance),
    ci95_low: mean - half,
    ci95_high: mean + half,
  };
}
