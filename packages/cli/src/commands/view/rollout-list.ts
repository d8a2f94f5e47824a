/**
 * A run's rollouts as the rollouts screen lists them: by example and rollout, and after a search,
 * those whose text holds it.
 */
import { contentText, type Message } from "@vf-rl/core";
import type { LoadedRun, RolloutRecord } from "@vf-rl/core/results";
import { readTrace } from "@vf-rl/core/results";

/**
 * Indices of a run's rollouts by example, then rollout, as a run's rows are saved in the order
 * rollouts finished (#0, #1, #7, #3, ...); equal ones keep their saved order.
 */
export function rolloutOrder(run: LoadedRun): number[] {
  const records = run.records;
  return records
    .map((_, i) => i)
    .sort(
      (a, b) =>
        records[a]!.example_id - records[b]!.example_id ||
        records[a]!.rollout_index - records[b]!.rollout_index ||
        a - b,
    );
}

/**
 * Indices of the rollouts shown on a rollouts screen (by example and rollout), after its search: a
 * rollout matches by its error, stop condition, answer, messages and the tool calls in them, and an
 * agent's also by every branch of its trace, the errors that ended it and the program's output.
 */
export function visibleRollouts(run: LoadedRun, query: string): number[] {
  const q = query.toLowerCase();
  const ordered = rolloutOrder(run);
  if (!q) return ordered;
  return ordered.filter((i) => searchText(run.records[i]!).includes(q));
}

// The list is filtered again on every key; an agent's text runs to megabytes: made once a row.
const searchable = new WeakMap<RolloutRecord, string>();

function searchText(record: RolloutRecord): string {
  const cached = searchable.get(record);
  if (cached !== undefined) return cached;
  const text = rowText(record).toLowerCase();
  searchable.set(record, text);
  return text;
}

function rowText(record: RolloutRecord): string {
  const read = readTrace(record);
  const trace = read.type === "trace" ? read.trace : null;
  return [
    record.error?.error ?? "",
    record.stop_condition ?? "",
    record.answer,
    ...record.completion.map(messageText),
    ...record.prompt.map(messageText),
    ...(trace?.nodes.map((node) => messageText(node.message)) ?? []),
    ...(trace?.errors.map((error) => `${error.type} ${error.message}`) ?? []),
    trace?.output ?? "",
  ].join(" ");
}

/** A message's text and, for an assistant's, the tool calls it made (name and arguments). */
function messageText(message: Message): string {
  const calls = message.role === "assistant" ? (message.tool_calls ?? []) : [];
  return [
    contentText(message.content),
    ...calls.map((c) => `${c.function.name} ${c.function.arguments}`),
  ].join(" ");
}
