/**
 * Runs every evaluation of one `vf eval` command (the flags' one, or a config's [[eval]] blocks and
 * sweep cells). Several run side by side: up to EVALS_AT_ONCE at a time, their rollouts drawing on
 * one budget of slots, their progress on one board, their model connections shared. One that fails
 * is reported under its name and the others go on; a single evaluation's failure is the command's.
 */
import { type EvaluateResult, Slots } from "@vf-rl/core";
import { reportError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import type { EvalSpec, RunSettings } from "./eval-spec.ts";
import { Heartbeat } from "./heartbeat.ts";
import { ModelPool } from "./model-pool.ts";
import { ProgressBoard, progressMode } from "./progress-board.ts";
import { runEval } from "./run-eval.ts";
import { runFailure } from "./run-outcome.ts";

// Each running evaluation holds its environment (dataset, sandboxes) in memory; the rest wait.
const EVALS_AT_ONCE = 4;

export interface EvaluationsOptions {
  settings: RunSettings;
  io: Output;
  signal: AbortSignal;
  /** Rollouts in flight across all evaluations at once. */
  maxConcurrent: number;
}

/**
 * One evaluation and how it ended: a result (complete or interrupted), a failure (with the result
 * when it ran but stopped early or failed every rollout), or never started (interrupted before).
 */
export interface EvaluationOutcome {
  spec: EvalSpec;
  result?: EvaluateResult;
  failed?: boolean;
}

export async function runEvaluations(
  specs: readonly EvalSpec[],
  options: EvaluationsOptions,
): Promise<EvaluationOutcome[]> {
  const { settings, io, signal } = options;
  const several = specs.length > 1;
  const board = new ProgressBoard(io, progressMode(io, settings.disableTui));
  const models = new ModelPool();
  const heartbeat = settings.heartbeatUrl
    ? new Heartbeat(settings.heartbeatUrl, (line) => io.err(`${io.colour.err.yellow("warning:")} ${line}`))
    : undefined;
  const sharedSlots = several ? new Slots(options.maxConcurrent) : undefined;
  const entries = specs.map((spec) => board.add(spec.label ? `${spec.envId} [${spec.label}]` : spec.envId));
  const outcomes: EvaluationOutcome[] = specs.map((spec) => ({ spec }));
  const runOne = async (i: number) => {
    if (signal.aborted) return;
    const progress = entries[i]!;
    const context = { settings, io, signal, board, progress, models, several, sharedSlots, heartbeat };
    try {
      const result = await runEval(specs[i]!, context);
      outcomes[i]!.result = result;
      // Stopped early, or not one rollout succeeded: printed and compared, but a failure.
      const failure = runFailure(result);
      if (failure) throw failure;
    } catch (error) {
      progress.end("failed");
      if (!several) throw error; // the command's error line says it all
      board.update(progress);
      outcomes[i]!.failed = true;
      reportError(error, {
        verbose: settings.verbose,
        write: io.err,
        colour: io.colour.err,
        subject: progress.label,
      });
    }
  };
  try {
    let next = 0;
    const worker = async () => {
      while (next < specs.length) await runOne(next++);
    };
    await Promise.all(Array.from({ length: Math.min(EVALS_AT_ONCE, specs.length) }, worker));
  } finally {
    board.end();
    await models.close();
    await heartbeat?.close();
  }
  return outcomes;
}
