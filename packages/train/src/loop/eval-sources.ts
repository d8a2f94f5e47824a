/**
 * What a run evaluates while training ([eval]): each training environment's eval split, or, when
 * the config names [[eval.env]] sources (prime-rl's eval.source[]), those instead, each with its own
 * rows and rollouts per row over [eval]'s. An eval-only environment is never trained on.
 */
import type { EvalConfig } from "../config/train-config.ts";
import type { TrainEnv } from "../rollouts/collect-batch.ts";

/** One environment to evaluate, and how much of it. */
export interface EvalSource {
  /** A training environment, or an [[eval.env]] one. */
  env: TrainEnv;
  /** Rows of its eval split (the same rows every time). */
  numExamples: number;
  rolloutsPerExample: number;
}

/**
 * The sources of `evalConfig`: its [[eval.env]] tables, opened as `evalEnvs` (in their order), or
 * without them every training environment in `envs_E`.
 */
export function evalSources(
  evalConfig: EvalConfig,
  envs_E: readonly TrainEnv[],
  evalEnvs: readonly TrainEnv[],
): EvalSource[] {
  const { num_examples: numExamples, rollouts_per_example: rolloutsPerExample } = evalConfig;
  if (evalConfig.env === undefined) return envs_E.map((env) => ({ env, numExamples, rolloutsPerExample }));
  return evalConfig.env.map((spec, i) => ({
    env: evalEnvs[i]!,
    numExamples: spec.num_examples ?? numExamples,
    rolloutsPerExample: spec.rollouts_per_example ?? rolloutsPerExample,
  }));
}
