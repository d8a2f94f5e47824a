/**
 * When `vf eval` fails although the evaluation ran: the run stopped early on an error every model
 * call would repeat (a rejected key, an unknown model, a spent quota), or not one rollout
 * succeeded. Either is one line with the server's or the first rollout's own message. A run that
 * finished with only some rollouts failed is a result, not a failure.
 */
import type { EvaluateResult } from "@vf-rl/core";
import { UserError } from "@vf-rl/core/errors";

/** The evaluation ran, but it stopped early or every rollout failed. */
export class EvalRunFailedError extends UserError {}

/** The error to exit with for this run, or null when it succeeded (some failed rollouts included). */
export function runFailure(result: EvaluateResult): EvalRunFailedError | null {
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
