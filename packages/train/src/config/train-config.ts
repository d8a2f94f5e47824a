/**
 * The training config: one TOML file, every key checked by this schema (`.strict()` everywhere, so
 * a typo is an error with the nearest valid key, never a silently ignored setting). Cross-key rules
 * (batch_size divisible by rollouts_per_example, ...) live in config-rules.ts.
 *
 * Keys follow verifiers' and prime-rl's v0.4 names (snake_case, as in their TOML files):
 *
 *   model = "packages/engine/models/base"   # a checkpoint folder, or a [model] table for a fresh model
 *   max_steps = 40
 *   batch_size = 32                          # rollouts per step
 *   rollouts_per_example = 8                 # rollouts per group (one prompt)
 *   [sampling]  max_tokens, temperature, top_p, top_k, min_p, repetition_penalty
 *   filter_zero_advantages = true            # zero-advantage rollouts are not trained on
 *   [[filters]] type ("gibberish", "repetition"), enforce, and the type's thresholds
 *   [[env]]     id, num_examples, ratio, [env.args], [env.curriculum] (sampler, gates)
 *               or prime-rl's agents: [env.taskset] (id and arguments), [env.agent.harness] (id and
 *               options), [env.agent.runtime] (type), declared in @vf-rl/agents/config
 *   [eval]      interval, num_examples, rollouts_per_example, [eval.sampling], and [[eval.env]]
 *               (named as [[env]], with num_examples and rollouts_per_example of its own)
 *   [algo]      type ("grpo", or "opd": kl_coef, reward_weight, [algo.teacher] model or url)
 *   [sft]       a supervised stage before RL (config/sft-stage-config.ts): max_steps, batch_size,
 *               lr, data (default: the [[env]] rows' references), min_reward, ...
 */
import { AgentTable, HarnessTable, RuntimeTable, TasksetTable } from "@vf-rl/agents/config";
import { HttpUrl } from "@vf-rl/core/config";
import { z } from "zod";
import { AlgoConfig } from "./algo-config.ts";
import { CurriculumConfig } from "./curriculum-config.ts";
import { FiltersConfig } from "./filters-config.ts";
import { SftStageConfig } from "./sft-stage-config.ts";

/** How rollouts sample. The same values go to the server of every turn. */
export const SamplingConfig = z
  .object({
    /** Most tokens per model turn (default 128). */
    max_tokens: z.number().int().positive().default(128),
    /**
     * Softmax temperature (default 1). The loss divides the trainer's logits by the same value, so
     * trainer and sampler compare the same distribution. Must be above 0: greedy samples have no
     * usable logprobs.
     */
    temperature: z.number().positive().max(2).default(1),
    /**
     * Nucleus sampling (default 1: off). Like top_k and min_p it truncates the distribution the
     * sampler draws from but not the one the trainer scores, which skews the importance ratio;
     * prime-rl turns all three off for training.
     */
    top_p: z.number().gt(0).max(1).default(1),
    /** Keep the k most likely tokens; -1 or 0 keeps all (default -1). */
    top_k: z.number().int().min(-1).default(-1),
    /** Drop tokens less likely than min_p times the most likely (default 0: off). */
    min_p: z.number().min(0).max(1).default(0),
    /** Above 1 discourages repeated tokens (default 1: off). */
    repetition_penalty: z.number().positive().default(1),
  })
  .strict();
export type SamplingConfig = z.infer<typeof SamplingConfig>;

/**
 * The keys that name an environment, the same in [[env]] and [[eval.env]]: by `id` (and
 * `[env.args]`), or, as prime-rl names agents, by `[env.taskset]`; a taskset package, or an
 * environment given a harness, runs through agents: the harness's model calls are the rollout's turns.
 */
const ENV_NAMING = {
  /** Environment id (`reverse-text`, `owner/name@1.0.0`) or a package folder; or `[env.taskset] id`. */
  id: z.string().min(1).optional(),
  /**
   * An env server already serving this environment (`vf env serve`, e.g. "tcp://10.0.0.5:5000"):
   * its rows come from the server and its rollouts run there, calling the policy's inference
   * server; `id` then only names it and `args` are the server's business.
   */
  address: z
    .string()
    .regex(/^(tcp|ipc):\/\//, "must be a ZeroMQ address such as tcp://127.0.0.1:5000")
    .optional(),
  /** Arguments of the environment's loadEnvironment (the [env.args] table). */
  args: z.record(z.string(), z.unknown()).default({}),
  /** prime-rl's `[env.taskset]`: the taskset's id, its other keys its arguments. */
  taskset: TasksetTable.optional(),
  /** prime-rl's `[env.agent]`: `[env.agent.harness]` (id, options) and `[env.agent.runtime]` (type). */
  agent: AgentTable.optional(),
  /** `[env.harness]`, the same as `[env.agent.harness]`. */
  harness: HarnessTable.optional(),
  /** `[env.runtime]`, the same as `[env.agent.runtime]`. */
  runtime: RuntimeTable.optional(),
};

/** What ENV_NAMING's keys hold, as the checks below read them. */
interface EnvNaming {
  id?: string | undefined;
  address?: string | undefined;
  args: Record<string, unknown>;
  taskset?: unknown;
  agent?: { harness?: unknown; runtime?: unknown } | undefined;
  harness?: unknown;
  runtime?: unknown;
}

/** The checks of a table of ENV_NAMING's keys (`table`: "env" or "eval.env", for messages). */
function checkEnvNaming(table: string) {
  return (env: EnvNaming, context: z.RefinementCtx): void => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: "custom", path: [path], message });
    if (env.id === undefined && env.taskset === undefined) {
      issue(
        "id",
        `is missing: name the environment with id = "<environment>", or a taskset with [${table}.taskset] id`,
      );
    }
    if (env.id !== undefined && env.taskset !== undefined) {
      issue("taskset", `names the environment a second time: keep id or [${table}.taskset], not both`);
    }
    if (Object.keys(env.args).length > 0 && env.taskset !== undefined) {
      issue("args", `are given twice: put the taskset's arguments in [${table}.taskset] beside its id`);
    }
    for (const key of ["harness", "runtime"] as const) {
      if (env[key] !== undefined && env.agent?.[key] !== undefined) {
        issue(
          key,
          `is set twice, as [${table}.${key}] and [${table}.agent.${key}]: keep one (prime-rl's is env.agent.${key})`,
        );
      }
    }
    if (env.address !== undefined && (env.agent ?? env.harness ?? env.runtime) !== undefined) {
      issue(
        "address",
        `serves the environment elsewhere, where its agents run: drop [${table}.agent] here, or address`,
      );
    }
  };
}

/**
 * One environment to train on; several [[env]] tables train on their mixture. It is named by the
 * keys of ENV_NAMING (id and [env.args], or [env.taskset] with [env.agent]).
 */
export const EnvConfig = z
  .object({
    // in the order these keys had before ratio, as checkpoints compare configs by their JSON
    id: ENV_NAMING.id,
    address: ENV_NAMING.address,
    args: ENV_NAMING.args,
    /**
     * Cap on the training rows used (rows after a seeded shuffle), like rLLM's max_samples; default
     * all. Without `ratio`, several environments are mixed in proportion to their (capped) row counts.
     */
    num_examples: z.number().int().positive().optional(),
    taskset: ENV_NAMING.taskset,
    agent: ENV_NAMING.agent,
    harness: ENV_NAMING.harness,
    runtime: ENV_NAMING.runtime,
    /**
     * prime-rl's per-source sampling weight: each prompt comes from this environment with
     * probability ratio / (sum of every [[env]]'s ratio), whatever the row counts ([1, 3] and
     * [0.25, 0.75] mix alike). Set on every [[env]] or on none; none (default): in proportion to
     * their row counts.
     */
    ratio: z.number().positive().optional(),
    /**
     * prime-rl's `[env.curriculum]` (config/curriculum-config.ts): `[env.curriculum.sampler]` picks
     * the rows (type "standard", the default: each row once per epoch, shuffled; or
     * "difficulty_pool": rows weighted by the pool of their latest group mean reward), and
     * `[env.curriculum.gates.NAME]` (type "advantage_range", reject_min, reject_max; default 0, 0)
     * reject finished groups, which are replaced by new draws. Absent: standard, no gates.
     */
    curriculum: CurriculumConfig.optional(),
  })
  .strict()
  .superRefine(checkEnvNaming("env"));
export type EnvConfig = z.infer<typeof EnvConfig>;

/** A freshly initialised engine model (instead of a checkpoint folder). */
export const FreshModelConfig = z
  .object({
    /** Width of the residual stream. */
    d_model: z.number().int().positive(),
    /** Number of transformer blocks. */
    n_layers: z.number().int().positive(),
    /** Attention heads; d_model / n_heads must be even. */
    n_heads: z.number().int().positive(),
    /** Hidden width of the MLP (default 4 × d_model). */
    d_ff: z.number().int().positive().optional(),
    /** Longest sequence, prompt and completion together (default 256). */
    max_seq_len: z.number().int().positive().default(256),
    /** Seed of the initial weights (default 0). */
    init_seed: z.number().int().default(0),
  })
  .strict();
export type FreshModelConfig = z.infer<typeof FreshModelConfig>;

/** AdamW and its learning-rate schedule. */
export const OptimizerConfig = z
  .object({
    /** Peak learning rate (default 1e-4). */
    learning_rate: z.number().positive().default(1e-4),
    /** "constant" after warmup, or "cosine" decay to min_learning_rate at max_steps (default constant). */
    schedule: z.enum(["constant", "cosine"]).default("constant"),
    /** Steps of linear warmup (default 0). */
    warmup_steps: z.number().int().nonnegative().default(0),
    /** Floor of the cosine schedule (default 0). */
    min_learning_rate: z.number().nonnegative().default(0),
    /** Decoupled weight decay (default 0). */
    weight_decay: z.number().nonnegative().default(0),
    /** Clip the global gradient norm to this value; 0 turns clipping off (default 1). */
    max_grad_norm: z.number().nonnegative().default(1),
    beta1: z.number().min(0).lt(1).default(0.9),
    beta2: z.number().min(0).lt(1).default(0.99),
  })
  .strict();
export type OptimizerConfig = z.infer<typeof OptimizerConfig>;

/** The policy-gradient loss. */
export const LossConfig = z
  .object({
    /**
     * "masked_importance_sampling" (default): −r·A per sampled token, where a token whose ratio
     * r = π_trainer/π_sampler leaves [mask_low, mask_high] is dropped (CISPO/IcePop style);
     * "importance_sampling": −r·A on every sampled token.
     */
    type: z.enum(["masked_importance_sampling", "importance_sampling"]).default("masked_importance_sampling"),
    /** Lower edge of the ratio band (default 0.125). */
    mask_low: z.number().positive().default(0.125),
    /** Upper edge of the ratio band (default 8). */
    mask_high: z.number().positive().default(8),
  })
  .strict();
export type LossConfig = z.infer<typeof LossConfig>;

/** How rewards become advantages. */
export const AdvantageConfig = z
  .object({
    /** Divide reward − group mean by the group's standard deviation (default false, Dr.GRPO style). */
    normalize_std: z.boolean().default(false),
    /**
     * prime-rl's linear length penalty, off when absent: each reward loses pass_rate × (output ·
     * out/max_out + input · in/max_in + turns · turns/max_turns) before centring, maxima over the group.
     */
    length_penalty: z
      .object({
        output: z.number().nonnegative().default(0.25),
        input: z.number().nonnegative().default(0.1),
        turns: z.number().nonnegative().default(0.1),
      })
      .strict()
      .optional(),
  })
  .strict();
export type AdvantageConfig = z.infer<typeof AdvantageConfig>;

/**
 * An environment evaluated while training, as prime-rl's `eval.source[]`: named as an [[env]] is
 * (id and [eval.env.args], or [eval.env.taskset] ...), its eval split run at every evaluation and
 * never trained on.
 */
export const EvalEnvConfig = z
  .object({
    ...ENV_NAMING,
    /** Rows of its eval split (default: [eval] num_examples). */
    num_examples: z.number().int().positive().optional(),
    /** Rollouts per row (default: [eval] rollouts_per_example). */
    rollouts_per_example: z.number().int().positive().optional(),
  })
  .strict()
  .superRefine(checkEnvNaming("eval.env"));
export type EvalEnvConfig = z.infer<typeof EvalEnvConfig>;

/** Evaluation while training: each training environment's eval split, or the [[eval.env]] sources. */
export const EvalConfig = z
  .object({
    /** Evaluate every this many steps (and before the first and after the last); 0: only those two. */
    interval: z.number().int().nonnegative().default(10),
    /** Rows of each environment's eval split (default 32). */
    num_examples: z.number().int().positive().default(32),
    /** Rollouts per row (default 1). */
    rollouts_per_example: z.number().int().positive().default(1),
    /** Sampling args of evaluations that differ from [sampling], e.g. temperature (default none). */
    sampling: SamplingConfig.partial().default({}),
    /**
     * The environments to evaluate ([[eval.env]] tables), instead of the training ones; absent
     * (default): each [[env]]'s eval split.
     */
    env: z.array(EvalEnvConfig).min(1).optional(),
  })
  .strict();
export type EvalConfig = z.infer<typeof EvalConfig>;

/**
 * Checkpoints for --resume, --resume-step and --fork. One is always written when the run ends or is
 * interrupted. Retention as prime-rl's: the newest keep_last, plus every multiple of keep_interval.
 */
export const CheckpointsConfig = z
  .object({
    /** Write a checkpoint every this many steps (default 10); 0: only at the end. */
    interval: z.number().int().nonnegative().default(10),
    /** Newest checkpoints kept; older ones are deleted unless keep_interval keeps them (default 2). */
    keep_last: z.number().int().positive().default(2),
    /**
     * Checkpoints at every multiple of this many steps are kept for good, beside the newest
     * keep_last (default none). Only steps that get a checkpoint count: make it a multiple of interval.
     */
    keep_interval: z.number().int().positive().optional(),
  })
  .strict();
export type CheckpointsConfig = z.infer<typeof CheckpointsConfig>;

/** Where the gradient work runs. */
export const TrainerConfig = z
  .object({
    /** URL of a `vf trainer serve` server; absent: the engine in this process. */
    url: HttpUrl.optional(),
    /** Worker threads of the in-process engine (default 2). */
    threads: z.number().int().positive().default(2),
  })
  .strict();
export type TrainerConfig = z.infer<typeof TrainerConfig>;

/** Where rollouts are sampled. */
export const InferenceConfig = z
  .object({
    /**
     * Base URL (ending in /v1) of an OpenAI-compatible server that returns vLLM's token fields and
     * answers POST /update_weights (vf serve, prime-rl's vLLM); absent: the engine's server, started
     * in this process on a loopback port.
     */
    url: HttpUrl.optional(),
    /** The model name the server answers to (default: what its /v1/models lists first). */
    model: z.string().min(1).optional(),
    /** Variable holding the server's API key (default none: "EMPTY"). */
    api_key_var: z.string().min(1).optional(),
  })
  .strict();
export type InferenceConfig = z.infer<typeof InferenceConfig>;

/** The whole training config, with every default filled in. */
export const TrainConfig = z
  .object({
    /**
     * A checkpoint folder (config.json + model.safetensors), or a [model] table for a freshly
     * initialised engine model; default: the built-in base model.
     */
    model: z.union([z.string().min(1), FreshModelConfig]).optional(),
    /** Optimizer steps to reach; a resumed run continues to the same number (default 100). */
    max_steps: z.number().int().positive().default(100),
    /** Rollouts per step (default 64). */
    batch_size: z.number().int().positive().default(64),
    /** Rollouts per prompt, the group whose mean reward is the baseline (default 8). */
    rollouts_per_example: z.number().int().positive().default(8),
    /** Rollouts per forwardBackward call; the step's gradient is the same whatever it is (default 8). */
    micro_batch_size: z.number().int().positive().default(8),
    /** Rollouts in flight at once (default 64). */
    max_concurrent: z.number().int().positive().default(64),
    /**
     * How many steps the sampler may lag behind the trainer (default 1): the batch of step n is
     * sampled with the weights of step n − max_async_level while the trainer works on earlier
     * batches. 0 is fully on-policy and sequential.
     */
    max_async_level: z.number().int().nonnegative().default(1),
    /**
     * prime-rl's bound on staleness (default 8): a rollout trained at step n whose oldest turn was
     * sampled by a policy older than n − max_off_policy_steps is dropped, and counted
     * (off_policy_dropped). Batches are max_async_level steps stale when trained; the groups carried
     * to a later batch (see oversampling_factor) grow one step staler per batch they wait. Must be
     * at least max_async_level, or every batch would be dropped.
     */
    max_off_policy_steps: z.number().int().nonnegative().default(8),
    /** Drop groups whose mean reward is at or above this (absent: keep easy groups). */
    easy_threshold: z.number().optional(),
    /** Drop groups whose mean reward is at or below this (absent: keep hard groups). */
    hard_threshold: z.number().optional(),
    /**
     * Groups sampled per needed group (default 1): with filtering on, 2 samples twice the groups
     * a batch needs at once, so fewer rounds of sampling are needed to refill it. Groups kept
     * beyond what the batch needs are carried to the next batch, which takes them before drawing.
     */
    oversampling_factor: z.number().min(1).default(1),
    /**
     * prime-rl's zero-advantage filter (default true): a rollout of a kept group whose advantage is
     * zero (its reward is its group's mean) is not sent to the trainer; the batch shrinks. The loss
     * is a token mean over the batch, so such tokens only dilute the step's gradient; without them
     * it is the mean over the tokens that carry a signal. Counted per step (rollout_filters).
     */
    filter_zero_advantages: z.boolean().default(true),
    /**
     * `[[filters]]`: detectors of degenerate rollouts (config/filters-config.ts), run on every
     * rollout of a kept group: type "gibberish" (token_id_threshold, logprob_offset) and
     * "repetition" (window, prob_threshold), each counting what it flags, and with enforce = true
     * leaving it out of training (its reward still counts in the group's baseline). Default none.
     */
    filters: FiltersConfig.default([]),
    /** Seed of the data order and of every sampled token (default 0). */
    seed: z.number().int().default(0),
    /** Run folder: metrics.jsonl, checkpoints/, weights/, the reward curve (default outputs/train/<env>). */
    output_dir: z.string().min(1).optional(),
    sampling: SamplingConfig.default(SamplingConfig.parse({})),
    env: z.array(EnvConfig).min(1),
    optimizer: OptimizerConfig.default(OptimizerConfig.parse({})),
    loss: LossConfig.default(LossConfig.parse({})),
    advantage: AdvantageConfig.default(AdvantageConfig.parse({})),
    /**
     * How rollouts become per-token credit (config/algo-config.ts): type "grpo" (default), or "opd",
     * on-policy distillation from a frozen [algo.teacher], with kl_coef (default 1) and
     * reward_weight (default 0).
     */
    algo: AlgoConfig.default({ type: "grpo" }),
    /** Absent: no evaluation while training. */
    eval: EvalConfig.optional(),
    checkpoints: CheckpointsConfig.default(CheckpointsConfig.parse({})),
    trainer: TrainerConfig.default(TrainerConfig.parse({})),
    inference: InferenceConfig.default(InferenceConfig.parse({})),
    /**
     * A supervised stage run before RL (config/sft-stage-config.ts), whose final weights are RL's
     * policy 0 with a fresh optimizer; absent (default): RL from `model`.
     */
    sft: SftStageConfig.optional(),
  })
  .strict();
export type TrainConfig = z.infer<typeof TrainConfig>;
/** A config as written in a file: defaults may be left out. */
export type TrainConfigInput = z.input<typeof TrainConfig>;
