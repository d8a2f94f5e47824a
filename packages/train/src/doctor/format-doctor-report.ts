/** The doctor's report as the lines `vf doctor` prints. */
import { formatReward } from "./reward-numbers.ts";
import type { DoctorReport } from "./run-doctor.ts";

/** Lines of text: the numbers, the advice, and the suggested config. */
export function formatDoctorReport(report: DoctorReport): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const [low, high] = report.rewardRange;
  const lines = [
    `${report.envId} with ${report.model}: ${report.groups} groups x ${report.rolloutsPerExample} rollouts${report.cancelled ? " (interrupted: partial numbers)" : ""}`,
    report.constantReward
      ? `  reward          ${formatReward(report.reward.mean)} for every rollout (constant)`
      : `  reward          ${report.reward.mean.toFixed(3)} ± ${report.reward.std.toFixed(3)}, 95% CI [${report.reward.ci95[0].toFixed(3)}, ${report.reward.ci95[1].toFixed(3)}], range ${low.toFixed(3)} to ${high.toFixed(3)}${report.binary ? " (binary)" : ""}`,
    `  groups          ${pct(report.groupsWithSpread)} with reward spread, mean within-group std ${report.meanGroupStd.toFixed(3)}`,
    // with one reward for every rollout no group fails or passes more than another: say so in words
    report.constantReward
      ? `  outcome         every rollout scored ${formatReward(report.reward.mean)}: no group has a rollout that did better or worse than another`
      : `  all fail / pass ${pct(report.allFail)} / ${pct(report.allPass)} of groups`,
    `  rollouts        ${pct(report.truncated)} truncated, ${pct(report.errored)} errored, ${pct(report.withoutTokens)} without token ids, ${report.completionTokensMean.toFixed(0)} completion tokens on average`,
    "",
    "advice:",
    ...report.advice.map((line) => `  - ${line}`),
  ];
  if (report.suggestedConfig !== "") {
    lines.push(
      "",
      "suggested config:",
      ...report.suggestedConfig
        .trimEnd()
        .split("\n")
        .map((l) => `  ${l}`),
    );
  }
  return lines;
}
