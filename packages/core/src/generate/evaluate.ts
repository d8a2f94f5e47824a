/**
 * Evaluates a model on an environment: takes the eval split (shuffled and cut to `numExamples`),
 * runs `rolloutsPerExample` rollouts of each row through `generate`, and summarises the run with
 * verifiers' aggregates. With `save`, rows are written to `<outputDir>/evals/<env>--<model>/<id>/`
 * (`<env>--<model>--<harness>/<id>/` for an agent run) as each group finishes and metadata.json
 * says whether the run completed, so an interrupted run keeps what finished and `resume` continues it.
 *
 * @example
 * const result = await evaluate(env, { clients: client, model: "gpt-4.1-mini", numExamples: 20, rolloutsPerExample: 3 });
 * console.log(result.metadata.avg_reward);
 */
import type { FatalModelError } from "../client/fatal-model-error.ts";
import type { Environment } from "../envs/environment.ts";
import { type RunSummary, summarizeRun } from "../metrics/summarize-run.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import type { RunMetadata } from "../records/run-metadata.ts";
import { planResume } from "../results/plan-resume.ts";
import type { ResumeSettings } from "../results/resume-settings.ts";
import { newRunId, runDirectory } from "../results/run-directory.ts";
import { RunWriter } from "../results/run-writer.ts";
import { type GenerateOptions, generate } from "./generate.ts";
import { unknownStateColumns, unknownStateColumnsWarning } from "./unknown-state-columns.ts";

export interface SaveOptions {
  /** The base folder; runs go under `<outputDir>/evals/`. */
  outputDir: string;
  /** Continue the latest matching incomplete run (true) or the named run folder. */
  resume?: boolean | string;
}

export interface EvaluateProgress {
  /** Rollouts finished, including those kept from a resumed run. */
  done: number;
  total: number;
  /** The records that just finished. */
  latest: RolloutRecord[];
}

/** Options of `evaluate`: model clients, the model, how many examples and rollouts, sampling, saving. */
export interface EvaluateOptions extends Omit<GenerateOptions, "onGroup"> {
  /** The environment's id, as metadata.json names it and the run folder is named; default "environment". */
  envId?: string;
  /** The arguments the environment was loaded with, for metadata.json (and resuming); default {}. */
  envArgs?: Record<string, unknown>;
  /** Rows to evaluate; undefined or -1: all. */
  numExamples?: number;
  /** Default 1. */
  rolloutsPerExample?: number;
  shuffle?: boolean;
  /** Default 0. */
  shuffleSeed?: number;
  /** A rollout with at least this reward counts as passed in pass@k; default 0.5. */
  passThreshold?: number;
  /** Where the endpoint is, for metadata.json (comma-joined for replicas). */
  baseUrl?: string;
  /**
   * The run's name (verifiers' `name` of an eval config block): saved in metadata.json, and it names
   * the run's folder, `<outputDir>/evals/<name>--<model>/`, instead of the environment id.
   */
  name?: string;
  /**
   * For an agent run (an `AgentEnv`): its harness and runtime ids, saved in metadata.json and part of
   * what a resumed run must match; the harness ends the folder's name,
   * `<outputDir>/evals/<env>--<model>--<harness>/`. Absent: an environment's own run.
   */
  agent?: { harness: string; runtime: string };
  save?: SaveOptions;
  onStart?: (info: { total: number; alreadyDone: number; runDir?: string; warnings: string[] }) => void;
  onProgress?: (progress: EvaluateProgress) => void;
  /** A warning that arises while rollouts run (every warning is also in the result). */
  onWarning?: (warning: string) => void;
}

/** What `evaluate` returns: every rollout's record and the run's metadata (averages, pass@k). */
export interface EvaluateResult {
  /** Every rollout of the run, kept ones included, sorted by example and rollout index. */
  records: RolloutRecord[];
  metadata: RunMetadata;
  summary: RunSummary;
  /** The run folder, when saved. */
  runDir?: string;
  cancelled: boolean;
  /** The error every model call would have repeated, when one stopped the run early; else null. */
  stoppedBy: FatalModelError | null;
  warnings: string[];
}

/** Runs and scores rollouts of an environment's eval split and summarises them, optionally saving the run. */
export async function evaluate<Data>(
  env: Environment<Data>,
  options: EvaluateOptions,
): Promise<EvaluateResult> {
  const started = Date.now();
  const r = options.rolloutsPerExample ?? 1;
  const numExamples = options.numExamples ?? -1;
  const { inputs, warnings } = await env.inputs({
    split: "eval",
    numExamples,
    rolloutsPerExample: r,
    shuffle: options.shuffle ?? false,
    seed: options.shuffleSeed ?? 0,
  });
  const rows = new Set(inputs.map((input) => input.exampleId)).size;
  if (numExamples > rows) {
    warnings.push(
      `asked for ${numExamples} examples but the dataset has ${rows}: evaluating all ${rows} (raise the rollouts per example for more rollouts)`,
    );
  }
  const envArgs = options.envArgs ?? {};
  const settings: ResumeSettings = {
    env_args: envArgs,
    num_examples: numExamples,
    rollouts_per_example: r,
    shuffle: options.shuffle ?? false,
    shuffle_seed: options.shuffleSeed ?? 0,
    sampling_args: options.sampling ?? {},
    ...(options.agent ? { harness: options.agent.harness, runtime: options.agent.runtime } : {}),
  };
  const envId = options.envId || "environment";
  let kept: RolloutRecord[] = [];
  let todo = inputs;
  let writer: RunWriter | undefined;
  let runId: string | undefined;
  let date = new Date(started).toISOString();

  if (options.save) {
    const { outputDir, resume } = options.save;
    if (resume) {
      const runDir = typeof resume === "string" ? resume : undefined;
      const plan = await planResume({
        outputDir,
        envId,
        model: options.model,
        settings,
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(runDir ? { runDir } : {}),
      });
      if (plan.type === "resume") {
        kept = plan.records;
        todo = inputs.filter((input) => !plan.completed.get(input.exampleId)?.has(input.rolloutIndex));
        writer = await RunWriter.open({ dir: plan.dir, resume: true, lock: plan.lock });
        if (plan.rerun > 0) {
          warnings.push(
            `rerunning ${plan.rerun} rollouts that failed with infrastructure errors or were cut off by a stopped run`,
          );
        }
        runId = plan.runId;
        date = plan.metadata.date ?? date;
      } else {
        warnings.push("no incomplete run with these settings to resume: starting a new run");
      }
    }
    if (!writer) {
      runId = newRunId();
      const folder = options.name ?? envId;
      writer = await RunWriter.open({
        dir: runDirectory({
          outputDir,
          envId: folder,
          model: options.model,
          harness: settings.harness,
          runId,
        }),
      });
    }
    if (writer.tookOver) {
      warnings.push(
        `took over ${writer.dir} from process ${writer.tookOver.pid}, which stopped without finishing`,
      );
    }
  }

  const describe = (records: RolloutRecord[], status: RunMetadata["status"]) => {
    const summary = summarizeRun(records, {
      rolloutsPerExample: r,
      passThreshold: options.passThreshold ?? 0.5,
    });
    const metadata: RunMetadata = {
      env_id: envId,
      ...(options.name !== undefined ? { name: options.name } : {}),
      env_args: envArgs,
      model: options.model,
      base_url: options.baseUrl ?? "",
      num_examples: numExamples,
      rollouts_per_example: r,
      shuffle: settings.shuffle,
      shuffle_seed: settings.shuffle_seed,
      sampling_args: settings.sampling_args,
      time: (Date.now() - started) / 1000,
      ...summary.aggregates,
      state_columns: options.stateColumns ?? [],
      tools: env.toolDefs().length > 0 ? env.toolDefs() : undefined,
      status,
      date,
      run_id: runId,
      ...(options.agent ? { harness: options.agent.harness, runtime: options.agent.runtime } : {}),
    };
    return { metadata, summary };
  };

  options.onStart?.({
    total: inputs.length,
    alreadyDone: kept.length,
    warnings,
    ...(writer ? { runDir: writer.dir } : {}),
  });
  await writer?.writeMetadata(describe(kept, "running").metadata);
  let done = kept.length;
  let columnsChecked = false;
  // The writer holds the run folder's lock: release it however the run ends.
  const result = await generate(env, todo, {
    ...options,
    onGroup: async (records) => {
      if (!columnsChecked) {
        const unknown = unknownStateColumns(records, options.stateColumns ?? []);
        if (unknown.length > 0 || records.some((record) => record.error === null)) columnsChecked = true;
        if (unknown.length > 0) {
          warnings.push(unknownStateColumnsWarning(unknown));
          options.onWarning?.(warnings.at(-1)!);
        }
      }
      await writer?.append(records);
      done += records.length;
      options.onProgress?.({ done, total: inputs.length, latest: records });
    },
  }).catch(async (error: unknown) => {
    await writer?.close();
    throw error;
  });
  const records = [...kept, ...result.records].sort(
    (a, b) => a.example_id - b.example_id || a.rollout_index - b.rollout_index,
  );
  const { metadata, summary } = describe(records, finalStatus(result, records));
  await writer?.writeMetadata(metadata).finally(() => writer?.close());
  return {
    records,
    metadata,
    summary,
    cancelled: result.cancelled,
    stoppedBy: result.stoppedBy,
    warnings,
    ...(writer ? { runDir: writer.dir } : {}),
  };
}

/** How a run that returned ended: see `RunStatus`. */
function finalStatus(
  result: { cancelled: boolean; stoppedBy: FatalModelError | null },
  records: readonly RolloutRecord[],
): RunMetadata["status"] {
  if (result.cancelled) return "interrupted";
  if (result.stoppedBy) return "stopped";
  if (records.length > 0 && records.every((record) => record.error !== null)) return "failed";
  return "complete";
}
