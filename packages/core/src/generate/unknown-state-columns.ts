/**
 * State columns (`-C`, `state_columns`) name keys of a rollout's state. A misspelt one is saved as
 * nothing in every row, which nobody notices until the analysis: find the names that no finished
 * rollout had, so the run can warn after its first results instead of at the end.
 */
import type { RolloutRecord } from "../records/rollout-record.ts";

/** The requested columns that none of `records` has a value for; [] until a rollout succeeds. */
export function unknownStateColumns(records: readonly RolloutRecord[], columns: readonly string[]): string[] {
  const finished = records.filter((record) => record.error === null);
  if (finished.length === 0) return [];
  return columns.filter((column) => finished.every((record) => record.state?.[column] === undefined));
}

/** The warning for `unknownStateColumns`' result. */
export function unknownStateColumnsWarning(columns: readonly string[]): string {
  const names = columns.map((c) => `"${c}"`).join(", ");
  return `no rollout's state has ${names}: ${columns.length > 1 ? "they are" : "it is"} saved empty; check the state column names`;
}
