/**
 * One rollout record as one line of results.jsonl. As verifiers does, every metric is written twice:
 * inside `metrics` and flattened as a top-level key, so tools that read flat columns (pandas, the
 * Hub's tables, verifiers' own viewers) see them. A metric whose name is a record field (`reward`,
 * `answer`, `task`, ...) is not flattened: it stays only inside `metrics`, and the real field is
 * never overwritten.
 *
 * A record is checked where its parts enter a rollout: dataset rows and model responses by their
 * schemas, an environment's replies by `checkedEnvResponse`, reward functions' results by the
 * rubric, state columns by `toRecord`. What is left for here are the numbers an environment's own
 * code measures (its metrics), which JSON would silently turn into null. Parsing the whole record
 * again for every line cost about 6% of `vf eval`'s time at high concurrency.
 */
import { SystemError } from "../errors.ts";
import { issueLines } from "../schema-issues.ts";
import { RolloutRecord } from "./rollout-record.ts";

/** Names a metric may not take at the top level of a row: the record's own fields. */
export const RECORD_FIELDS: ReadonlySet<string> = new Set(Object.keys(RolloutRecord.shape));

/**
 * The JSON line (without its newline) for a record. Throws a SystemError when a number in it is
 * not finite (a NaN metric, say), since such a row could never be read back.
 */
export function recordToLine(record: RolloutRecord): string {
  if (!numbersAreFinite(record)) {
    const parsed = RolloutRecord.safeParse(record);
    const issue = parsed.success ? "a number that is not finite" : issueLines(parsed.error, "(row)")[0];
    throw new SystemError(
      `cannot save the rollout of example ${record.example_id}, rollout ${record.rollout_index}: ${issue}: this is a bug in whatever built the record; report it`,
    );
  }
  const row: Record<string, unknown> = { ...record };
  for (const [name, value] of Object.entries(record.metrics)) {
    if (!RECORD_FIELDS.has(name)) row[name] = value;
  }
  return JSON.stringify(row);
}

function numbersAreFinite(record: RolloutRecord): boolean {
  if (!Number.isFinite(record.reward)) return false;
  for (const name in record.metrics) if (!Number.isFinite(record.metrics[name])) return false;
  for (const group of [record.timing, record.token_usage]) {
    if (group === undefined) continue;
    for (const value of Object.values(group))
      if (value !== undefined && !Number.isFinite(value)) return false;
  }
  return true;
}
