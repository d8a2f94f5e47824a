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
import type { EnvConfig, EvalEnvConfig } from "../config/train-config.ts";
import { vfErrorOf } from "../engine-errors.ts";
import type { TrainEnv } from "../rollouts/collect-batch.ts";

/** The environments of a run with their training rows (one input per row). */
export interface RunEnvironments {
  envs_E: TrainEnv[];
  rows_E: RolloutInput[][];
  /** The [[eval.env]] environments: evaluated while training, never trained on (none without them). */
  evalEnvs: TrainEnv[];
  /** Things to tell the user (an environment without an eval split, ...). */
  notices: string[];
}

/**
 * Loads every [[env]] and its training rows (capped by num_examples, after a seeded shuffle), and
 * every [[eval.env]]; when one fails, those already open are torn down.
 */
export async function loadRunEnvironments(config: ResolvedTrainConfig): Promise<RunEnvironments> {
  const envs_E: TrainEnv[] = [];
  const rows_E: RolloutInput[][] = [];
  const evalEnvs: TrainEnv[] = [];
  const notices: string[] = [];
  try {
    for (const [index, spec] of config.env.entries()) {
      const opened = await openEnv(spec, "env", index);
      envs_E.push(opened);
      // Each environment's training rows, shuffled by the run's seed, one rollout per row.
      const { inputs, warnings } = await opened.env.inputs({
        split: "train",
        shuffle: true,
        seed: config.seed,
        rolloutsPerExample: 1,
        ...(spec.num_examples !== undefined ? { numExamples: spec.num_examples } : {}),
      });
      if (inputs.length === 0) {
        throw new UserError(
          spec.address !== undefined
            ? `the env server at ${spec.address} has no training rows`
            : `environment "${opened.id}" has no training rows: check its arguments and num_examples`,
        );
      }
      notices.push(...warnings.map((w) => `${opened.id}: ${w}`));
      rows_E.push(inputs);
    }
    for (const [index, spec] of (config.eval?.env ?? []).entries()) {
      evalEnvs.push(await openEnv(spec, "eval.env", index));
    }
  } catch (error) {
    for (const { env } of [...envs_E, ...evalEnvs]) await env.teardown();
    throw error;
  }
  return { envs_E, rows_E, evalEnvs, notices };
}

/**
 * The environment of an [[env]] or [[eval.env]] block (`table`, its `index`-th): served at its
 * address, or loaded here; bad arguments are told with the block's key.
 */
async function openEnv(
  spec: EnvConfig | EvalEnvConfig,
  table: "env" | "eval.env",
  index: number,
): Promise<TrainEnv> {
  const source = envSource(spec);
  if (spec.address !== undefined) {
    const server = new EnvClient(spec.address);
    const env = await ServedEnvironment.connect(server).catch((error: unknown) => {
      server.close();
      throw error;
    });
    env.addTeardown("close the env server connection", () => server.close());
    return { id: source.id, env, server };
  }
  const { env, id } = await loadTrainEnv(source).catch((error: unknown) => {
    if (!(error instanceof EnvArgsError)) throw error;
    const args = spec.taskset ? "taskset" : "args";
    throw new ConfigError(
      `${error.message}: fix them in [${table}.${args}] of the [[${table}]] block for "${source.id}"`,
      `${table}[${index}].${args}`,
    );
  });
  return { id, env };
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
