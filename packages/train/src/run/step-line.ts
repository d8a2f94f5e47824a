/** The console lines of a run: one per step and one per evaluation. */
import type { EvalRow, TrainRow } from "./metrics-row.ts";

/**
 * A step as one line, e.g.
 * `step 3/40 | reward 0.512 ± 0.210 (all 0.480) | groups 8/10 (1 easy, 1 flat) | loss -0.0012 ...`
 */
export function formatStepLine(row: TrainRow, maxSteps: number): string {
  const g = row.groups;
  const dropped = [
    g.too_easy > 0 ? `${g.too_easy} easy` : "",
    g.too_hard > 0 ? `${g.too_hard} hard` : "",
    g.no_spread > 0 ? `${g.no_spread} flat` : "",
    g.errored > 0 ? `${g.errored} errored` : "",
    g.surplus > 0 ? `${g.surplus} surplus` : "",
  ].filter(Boolean);
  const t = row.time_ms;
  return [
    `step ${row.step}/${maxSteps}`,
    `reward ${row.reward_mean.toFixed(3)} ± ${row.reward_std.toFixed(3)} (all ${row.reward_all_mean.toFixed(3)})`,
    `groups ${g.kept}/${g.drawn}${dropped.length > 0 ? ` (${dropped.join(", ")})` : ""}`,
    `loss ${fmt(row.loss)}`,
    `entropy ${row.entropy.toFixed(3)}`,
    `kl ${fmt(row.mismatch_kl)}`,
    `grad ${row.grad_norm.toFixed(3)}`,
    `tokens ${compact(row.tokens.trained)}`,
    `len ${row.completion_len_mean.toFixed(1)}`,
    `off-policy ${row.off_policy_max}`,
    `${secs(t.step)} (wait ${secs(t.wait_for_batch)}, sample ${secs(t.generate)}, train ${secs(t.forward_backward + t.optim)}, save ${secs(t.save_weights + t.checkpoint)})`,
  ].join(" | ");
}

/** An evaluation as one line, e.g. `eval @ step 10 | reverse-text 0.612 [0.581, 0.643] over 64 rollouts | 8.1s`. */
export function formatEvalLine(row: EvalRow): string {
  return `eval @ step ${row.step} | ${row.env} ${row.reward_mean.toFixed(3)} [${row.ci95_low.toFixed(3)}, ${row.ci95_high.toFixed(3)}] over ${row.rollouts} rollouts | ${secs(row.time_ms)}`;
}

function fmt(x: number): string {
  return Math.abs(x) >= 1e-3 || x === 0 ? x.toFixed(4) : x.toExponential(2);
}

function compact(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
