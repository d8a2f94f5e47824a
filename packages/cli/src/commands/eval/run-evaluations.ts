/**
 * Runs every evaluation of one `vf eval` command (the flags' one, or a config's [[eval]] blocks and
 * sweep cells). Several run side by side: up to EVALS_AT_ONCE at a time, their rollouts drawing on
 * one budget of slots, their progress on one board, their model connections shared. One that fails
 * is reported under its name and the others go on; a single evaluation's failure is the command's.
 * An evaluation fails although it ran when it stopped early on an error every model call would
 * repeat (a rejected key, an unknown model, a spent quota), or when not one rollout succeeded: one
 * line with the server's or the first rollout's own message. A run that finished with only some
 * rollouts failed is a result, not a failure.
 */
import { type EvaluateResult, Slots } from "@vf-rl/core";
import { UserError } from "@vf-rl/core/errors";
import { reportError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import { ModelPool } from "./connect-model.ts";
import type { EvalSpec, RunSettings } from "./eval-spec.ts";
import { Heartbeat, ProgressBoard, progressMode } from "./progress-board.ts";
import { runEval } from "./run-eval.ts";

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
  /** Why it failed, when it did. */
  error?: unknown;
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
      outcomes[i]!.error = error;
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

/** The evaluation ran, but it stopped early or every rollout failed. */
export class EvalRunFailedError extends UserError {}

/** The error to exit with for this run, or null when it succeeded (some failed rollouts included). */
function runFailure(result: EvaluateResult): EvalRunFailedError | null {
  const kept = result.runDir ? `, kept in ${result.runDir}` : "";
  if (result.stoppedBy) {
    const resume = result.runDir ? `: once that is fixed, continue it with -R ${result.runDir}` : "";
    return new EvalRunFailedError(
      `${result.stoppedBy.message}; the run stopped early with ${result.records.length} rollouts recorded${kept}${resume}`,
      // The cause carries the setting at fault, for the flag hint.
      { cause: result.stoppedBy },
    );
  }
  const failed = result.records.filter((record) => record.error !== null);
  if (result.cancelled || failed.length === 0 || failed.length < result.records.length) return null;
  const counts = Object.entries(result.metadata.error_counts)
    .map(([name, count]) => `${count} × ${name}`)
    .join(", ");
  const first = failed[0]!.error!;
  return new EvalRunFailedError(
    `every one of the ${failed.length} rollouts failed (${counts})${kept}; the first with ${first.error}: ${first.message}`,
  );
}
