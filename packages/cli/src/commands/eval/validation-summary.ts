/**
 * The text `vf eval validate` prints: rows checked, references scored, the longest prompt against
 * the limit, then each kind of failure with how many rows and the first few, by id.
 */
import { groupFailures, type ValidationReport } from "@vf-rl/core/checks";

/** Why each kind fails, as the summary heads it. */
const HEADINGS = {
  load: "did not load",
  prompt: "prompt did not render",
  too_long: "prompt too long",
  rollout: "reference rollout failed",
  scoring_error: "reward function raised on the reference",
  below_max: "reference below the maximum reward",
} as const;

/** The summary of a validation of `envId`; `limitNote` says where the prompt limit came from. */
export function formatValidation(envId: string, report: ValidationReport, limitNote = ""): string {
  const lines: string[] = [];
  const rows = `${report.checked} row${report.checked === 1 ? "" : "s"}`;
  const prompts =
    report.longestPrompt !== null
      ? `; longest prompt ${report.longestPrompt} tokens, limit ${report.maxPromptTokens}${limitNote}`
      : "";
  lines.push(`${envId}: ${rows} checked, ${report.referencesScored} references scored${prompts}`);
  const groups = groupFailures(report.failures);
  if (groups.length === 0) {
    lines.push("all rows pass");
    return lines.join("\n");
  }
  for (const group of groups) {
    // The environment as a whole fails to load: no row to count.
    const rows = group.kind === "load" ? "" : `: ${group.count} row${group.count === 1 ? "" : "s"}`;
    lines.push(`✗ ${HEADINGS[group.kind]}${rows}`);
    for (const { id, message } of group.examples) {
      lines.push(`  ${id === "" ? envId : `row ${id}`}: ${message}`);
    }
    if (group.count > group.examples.length)
      lines.push(`  ... and ${group.count - group.examples.length} more`);
  }
  return lines.join("\n");
}
