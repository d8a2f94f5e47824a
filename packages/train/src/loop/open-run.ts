/**
 * What a run needs before its first step: the environments and their training rows, and a
 * trainer (the engine in this process, or a `vf trainer serve` server), each failure turned into
 * one line saying what to fix.
 */
import { ConfigError, EnvArgsError, type Environment, type RolloutInput, UserError } from "@vf-rl/core";
import { findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import { createLocalTrainer, HttpTrainer, type Trainer, tokenizer } from "@vf-rl/engine";
import { EnvClient, ServedEnvironment } from "@vf-rl/env-server";
import { type EnvSource, envSource } from "../config/env-source.ts";
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
    const source = envSource(spec);
    if (spec.address !== undefined) {
      const server = new EnvClient(spec.address);
      const env = await ServedEnvironment.connect(server).catch((error: unknown) => {
        server.close();
        throw error;
      });
      env.addTeardown("close the env server connection", () => server.close());
      const { inputs, warnings } = await env.inputs(trainingRows);
      if (inputs.length === 0) throw new UserError(`the env server at ${spec.address} has no training rows`);
      notices.push(...warnings.map((w) => `${source.id}: ${w}`));
      envs_E.push({ id: source.id, env, server });
      rows_E.push(inputs);
      continue;
    }
    const argsKey = spec.taskset ? `env[${index}].taskset` : `env[${index}].args`;
    const { env, id } = await loadTrainEnv(source).catch((error: unknown) => {
      if (!(error instanceof EnvArgsError)) throw error;
      const table = spec.taskset ? "[env.taskset]" : "[env.args]";
      throw new ConfigError(
        `${error.message}: fix them in ${table} of the [[env]] block for "${source.id}"`,
        argsKey,
      );
    });
    const { inputs, warnings } = await env.inputs(trainingRows);
    if (inputs.length === 0) {
      await env.teardown();
      throw new UserError(`environment "${id}" has no training rows: check its arguments and num_examples`);
    }
    notices.push(...warnings.map((w) => `${id}: ${w}`));
    envs_E.push({ id, env });
    rows_E.push(inputs);
  }
  return { envs_E, rows_E, notices };
}

/**
 * The environment an [[env]] block names: a taskset package, or an environment given a harness, as
 * agents (@vf-rl/agents' `loadAgentEnv`: the harness's model calls through the interception server
 * are the rollout's turns, with the policy's token ids and logprobs); any other environment as it is.
 */
async function loadTrainEnv(
  source: EnvSource,
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
): Promise<{ env: Environment<any>; id: string }> {
  const isTaskset = findEnvironment(source.id).packageJson.vf.kind === "taskset";
  if (!isTaskset && source.agent?.harness === undefined) {
    if (source.agent !== undefined) {
      throw new ConfigError(
        `"${source.id}" is an environment, which runs as agents only with a harness: add [env.agent.harness] id = "chat" (its own turn loop) or "bash", or drop [env.agent]`,
      );
    }
    return loadEnvironmentById(source.id, { args: source.args });
  }
  // Loaded only for agents: a run of plain environments never starts the runtimes' code.
  const { loadAgentEnv } = await import("@vf-rl/agents");
  const agent = source.agent;
  return loadAgentEnv({
    envId: source.id,
    envArgs: source.args,
    ...(agent?.harness !== undefined ? { harness: agent.harness } : {}),
    ...(agent ? { harnessOptions: agent.harnessOptions, limits: agent.limits } : {}),
    ...(agent?.runtime !== undefined ? { runtime: agent.runtime } : {}),
  });
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
