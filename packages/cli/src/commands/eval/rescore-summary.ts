/**
 * The text `vf eval rescore` prints: where the new run is, the mean reward before → after with how
 * many rollouts changed, each metric likewise, the largest changes by example, and the functions
 * that could not score offline.
 */
import type { RescoreResult, ValueChange } from "@vf-rl/core/checks";

/** The summary of a rescore, one line per fact. */
export function formatRescore({ runDir, diff }: RescoreResult): string {
  const lines = [`rescored ${diff.rollouts} rollouts into ${runDir}`];
  lines.push(`reward  ${change(diff.reward)}  (${rollouts(diff.reward.changed, diff.rollouts)})`);
  for (const [name, value] of Object.entries(diff.metrics)) {
    lines.push(`  ${name}  ${change(value)}  (${rollouts(value.changed, diff.rollouts)})`);
  }
  if (diff.largest.length > 0) {
    lines.push("largest changes:");
    for (const c of diff.largest) {
      lines.push(`  example ${c.exampleId} rollout ${c.rolloutIndex}: ${num(c.before)} → ${num(c.after)}`);
    }
  } else {
    lines.push("no reward changed");
  }
  for (const [name, count] of Object.entries(diff.scoringErrors)) {
    lines.push(
      `scoring error in ${name} on ${count} of ${diff.rollouts} rollouts: ${diff.scoringErrorMessages[name]}`,
    );
  }
  return lines.join("\n");
}

function change({ before, after }: ValueChange): string {
  return `${num(before)} → ${num(after)}`;
}

function rollouts(changed: number, total: number): string {
  return changed === 0 ? "unchanged" : `${changed} of ${total} rollouts changed`;
}

/** A mean as three decimals; "absent" for a metric one side does not have. */
function num(value: number): string {
  return Number.isNaN(value) ? "absent" : value.toFixed(3);
}
