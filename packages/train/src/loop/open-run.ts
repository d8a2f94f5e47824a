/**
 * What a run needs before its first step: the environments and their training rows, and a
 * trainer (the engine in this process, or a `vf trainer serve` server), each failure turned into
 * one line saying what to fix.
 */
import { ConfigError, EnvArgsError, type RolloutInput, UserError } from "@vf-rl/core";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import { createLocalTrainer, HttpTrainer, type Trainer, tokenizer } from "@vf-rl/engine";
import { EnvClient, ServedEnvironment } from "@vf-rl/env-server";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { vfErrorOf } from "../engine-errors.ts";
import type { TrainEnv } from "../rollouts/collect-batch.ts";

/** The environments of a run with their training rows (one input per row). */
export interface RunEnvironments {
  envs_E: TrainEnv[];
  rows_E: RolloutInput[][];
  /** Things to tell the user (an environment without an eval split, ...). */
  notices: string[];
}

/** Loads every [[env]] and its training rows (capped by num_examples, after a seeded shuffle). */
export async function loadRunEnvironments(config: ResolvedTrainConfig): Promise<RunEnvironments> {
  const envs_E: TrainEnv[] = [];
  const rows_E: RolloutInput[][] = [];
  const notices: string[] = [];
  for (const [index, spec] of config.env.entries()) {
    // Each environment's training rows, shuffled by the run's seed, one rollout per row.
    const trainingRows = {
      split: "train",
      shuffle: true,
      seed: config.seed,
      rolloutsPerExample: 1,
      ...(spec.num_examples !== undefined ? { numExamples: spec.num_examples } : {}),
    } as const;
    if (spec.address !== undefined) {
      const server = new EnvClient(spec.address);
      const env = await ServedEnvironment.connect(server).catch((error: unknown) => {
        server.close();
        throw error;
      });
      env.addTeardown("close the env server connection", () => server.close());
      const { inputs, warnings } = await env.inputs(trainingRows);
      if (inputs.length === 0) throw new UserError(`the env server at ${spec.address} has no training rows`);
      notices.push(...warnings.map((w) => `${spec.id}: ${w}`));
      envs_E.push({ id: spec.id, env, server });
      rows_E.push(inputs);
      continue;
    }
    const { env, id } = await loadEnvironmentById(spec.id, { args: spec.args }).catch((error: unknown) => {
      if (!(error instanceof EnvArgsError)) throw error;
      const key = `env[${index}].args`;
      throw new ConfigError(
        `${error.message}: fix them in [env.args] of the [[env]] block for "${spec.id}"`,
        key,
      );
    });
    const { inputs, warnings } = await env.inputs(trainingRows);
    if (inputs.length === 0) {
      throw new UserError(`environment "${id}" has no training rows: check its [env.args] and num_examples`);
    }
    notices.push(...warnings.map((w) => `${id}: ${w}`));
    envs_E.push({ id, env });
    rows_E.push(inputs);
  }
  return { envs_E, rows_E, notices };
}

/** The trainer a config names, and a line describing it. */
export async function openTrainer(
  config: ResolvedTrainConfig,
): Promise<{ trainer: Trainer; description: string }> {
  if (config.trainer.url !== undefined) {
    const trainer = new HttpTrainer({ url: config.trainer.url });
    const { config: model } = await trainer.health();
    const size = model ? ` (d_model ${model.dModel}, ${model.nLayers} layers)` : "";
    return { trainer, description: `trainer server at ${trainer.url}${size}` };
  }
  const threads = config.trainer.threads;
  try {
    if (typeof config.model === "string") {
      const trainer = await createLocalTrainer({ checkpoint: config.model, threads });
      return { trainer, description: `engine in this process (${threads} threads) from ${config.model}` };
    }
    const m = config.model;
    const trainer = await createLocalTrainer({
      config: {
        vocabSize: tokenizer.vocabSize,
        dModel: m.d_model,
        nLayers: m.n_layers,
        nHeads: m.n_heads,
        dFF: m.d_ff ?? 4 * m.d_model,
        maxSeqLen: m.max_seq_len,
      },
      seed: m.init_seed,
      threads,
    });
    return {
      trainer,
      description: `engine in this process (${threads} threads), a fresh model (d_model ${m.d_model}, ${m.n_layers} layers)`,
    };
  } catch (error) {
    throw vfErrorOf(error, "model");
  }
}
