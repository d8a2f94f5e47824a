/**
 * One rollout record as one line of results.jsonl. As verifiers does, every metric is written twice:
 * inside `metrics` and flattened as a top-level key, so tools that read flat columns (pandas, the
 * Hub's tables, verifiers' own viewers) see them. A metric whose name is a record field (`reward`,
 * `answer`, `task`, ...) is not flattened: it stays only inside `metrics`, and the real field is
 * never overwritten.
 */
import { SystemError } from "../errors.ts";
import { issueLines } from "../schema-issues.ts";
import { RolloutRecord } from "./rollout-record.ts";

/** Names a metric may not take at the top level of a row: the record's own fields. */
export const RECORD_FIELDS: ReadonlySet<string> = new Set(Object.keys(RolloutRecord.shape));

/**
 * The JSON line (without its newline) for a record. Throws a SystemError when the record does not
 * fit the schema (a NaN reward, say), since such a row could never be read back.
 */
export function recordToLine(record: RolloutRecord): string {
  const parsed = RolloutRecord.safeParse(record);
  if (!parsed.success) {
    throw new SystemError(
      `cannot save the rollout of example ${record.example_id}, rollout ${record.rollout_index}: ${issueLines(parsed.error, "(row)")[0]}: this is a bug in whatever built the record; report it`,
    );
  }
  const row: Record<string, unknown> = { ...parsed.data };
  for (const [name, value] of Object.entries(parsed.data.metrics)) {
    if (!RECORD_FIELDS.has(name)) row[name] = value;
  }
  return JSON.stringify(row);
}
