/**
 * metadata.json of a saved run, with verifiers' field names (`time` in seconds, `avg_reward`,
 * `avg_metrics`, `pass_at_k`, ...). Fields after `version_info` are vf's additions.
 */
import { z } from "zod";
import { ToolDefinition } from "../tools/tool.ts";

/**
 * Where a run stands. "running" and "interrupted" can be resumed; "stopped" ended early on an error
 * every model call would repeat (a rejected key, an unknown model, a spent quota), and resumes once
 * that is fixed; "failed" ran every rollout and none succeeded. verifiers writes no status and
 * ignores this one.
 */
export const RunStatus = z.enum(["running", "complete", "interrupted", "stopped", "failed"]);
export type RunStatus = z.infer<typeof RunStatus>;

/** A run's metadata.json: what was evaluated with which settings, its status and averages, as verifiers writes it. */
export const RunMetadata = z.object({
  env_id: z.string(),
  /** The evaluation's name (`name` of its config block), which also names its folder; absent: env_id. */
  name: z.string().optional(),
  env_args: z.record(z.string(), z.unknown()).default({}),
  model: z.string(),
  base_url: z.string().default(""),
  num_examples: z.number().int(),
  rollouts_per_example: z.number().int(),
  shuffle: z.boolean().default(false),
  shuffle_seed: z.number().int().default(0),
  sampling_args: z.record(z.string(), z.unknown()).default({}),
  /** Wall-clock seconds of the run. */
  time: z.number().default(0),
  avg_reward: z.number().default(0),
  avg_metrics: z.record(z.string(), z.number()).default({}),
  /** Share of rollouts that ended with an error. */
  avg_error: z.number().default(0),
  pass_at_k: z.record(z.string(), z.number()).default({}),
  pass_all_k: z.record(z.string(), z.number()).default({}),
  pass_threshold: z.number().default(0.5),
  usage: z
    .object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      final_input_tokens: z.number().optional(),
      final_output_tokens: z.number().optional(),
    })
    .optional(),
  version_info: z.record(z.string(), z.string().nullable()).optional(),
  state_columns: z.array(z.string()).default([]),
  tools: z.array(ToolDefinition).optional(),
  /** vf: whether every planned rollout finished; a resumable run is "running" or "interrupted". */
  status: RunStatus.default("complete"),
  /** vf: when the run started, ISO 8601. */
  date: z.string().optional(),
  /** vf: the run id (the folder name). */
  run_id: z.string().optional(),
  /**
   * vf: the harness that ran an agent run's tasks (`--harness`, verifiers v1's `[env.harness] id`),
   * e.g. "bash", "claude-code"; absent on environments' own runs. Part of what a resumed run must match.
   */
  harness: z.string().optional(),
  /**
   * vf: where an agent run's harness ran (`--runtime`, v1's `[env.runtime] type`): "local",
   * "container" or "subprocess". Part of what a resumed run must match.
   */
  runtime: z.string().optional(),
  /**
   * vf: set on a run made by `vf eval rescore`: the saved run it scored again with the environment's
   * rubric as it is now (its folder and id), offline; the rows are that run's, rewards and metrics new.
   */
  rescore_of: z.object({ dir: z.string(), run_id: z.string().optional() }).optional(),
  /** vf: rollouts that ended with an error, by error class name. */
  error_counts: z.record(z.string(), z.number()).default({}),
  /** vf: reward/metric functions that raised, by function name. */
  scoring_error_counts: z.record(z.string(), z.number()).default({}),
  /** vf: how often each stop condition ended a rollout. */
  stop_conditions: z.record(z.string(), z.number()).default({}),
});
export type RunMetadata = z.infer<typeof RunMetadata>;
