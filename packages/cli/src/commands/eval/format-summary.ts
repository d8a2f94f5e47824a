/**
 * The summary `vf eval` prints after a run, in verifiers' words: the evaluation, one example, then
 * every average (reward, pass@k and pass^k, each metric), stop conditions and errors with their
 * messages, timing and token usage; the per-rollout values (`r1: [...]`, one list per rollout
 * index) come last, and only for small runs or with -v, so a large run's averages stay in view.
 * Errors are grouped by kind (a rollout's error class, or a reward function and the class it
 * raised) with their count and distinct messages, so a hundred identical failures read as one line
 * with its cause instead of a bare count.
 */
import { contentText, type Messages } from "@vf-rl/core";
import type { RolloutRecord, RunMetadata, RunSummary } from "@vf-rl/core/results";
import { type Palette, palette } from "../../terminal/output.ts";

export interface SummaryInput {
  metadata: RunMetadata;
  summary: RunSummary;
  records: RolloutRecord[];
  runDir?: string;
  /** What sets this evaluation apart from the others of its command (a sweep's values, a name). */
  label?: string;
}

/** How much the summary shows, and in which colours. */
export interface SummaryOptions {
  /** Every distinct error message, and the per-rollout values whatever the run's size. */
  verbose?: boolean;
  /** Leave out the example prompt and completion (-A). */
  abbreviated?: boolean;
  /** Default: no colour. */
  colour?: Palette;
}

/** Runs of at most this many examples show their per-rollout values without -v. */
export const PER_ROLLOUT_MAX_EXAMPLES = 10;

const fmt = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3));
const list = (values: number[]) => `[${values.map(fmt).join(", ")}]`;

export function formatSummary(input: SummaryInput, options: SummaryOptions = {}): string[] {
  const { metadata, summary, records, runDir, label } = input;
  const c = options.colour ?? palette(false);
  const heading = (title: string) => c.bold(`--- ${title} ---`);
  const lines: string[] = [];
  lines.push(heading("Evaluation"));
  const name =
    metadata.name && metadata.name !== metadata.env_id ? `${metadata.name} (${metadata.env_id})` : "";
  lines.push(`Environment: ${name || metadata.env_id}`);
  if (label && label !== metadata.name) lines.push(`Setting: ${label}`);
  lines.push(`Model: ${metadata.model}`);
  lines.push(`Provider: ${metadata.base_url}`);
  lines.push(`Examples: ${summary.examples}`);
  lines.push(`Rollouts per example: ${metadata.rollouts_per_example}`);
  const example = records[0];
  if (example && !options.abbreviated) {
    lines.push(heading("Example"));
    lines.push(...formatConversation(example.prompt, "prompt"));
    lines.push(...formatConversation(example.completion, "completion"));
    if (example.error) lines.push(c.red(`error: ${example.error.error}: ${oneLine(example.error.message)}`));
    lines.push(`reward: ${c.bold(c.green(fmt(example.reward)))}`);
  }
  lines.push(heading("All"));
  lines.push("Rewards:");
  lines.push(`reward: avg - ${c.bold(c.green(fmt(summary.reward.mean)))}, std - ${fmt(summary.reward.std)}`);
  const passAt = Object.entries(metadata.pass_at_k);
  if (passAt.length > 0) {
    lines.push(`pass@k: ${passAt.map(([k, v]) => `${k}=${fmt(v)}`).join(", ")}`);
    lines.push(
      `pass^k: ${Object.entries(metadata.pass_all_k)
        .map(([k, v]) => `${k}=${fmt(v)}`)
        .join(", ")}`,
    );
  }
  for (const [metric, spread] of Object.entries(summary.metrics)) {
    lines.push(`${metric}: avg - ${fmt(spread.mean)}, std - ${fmt(spread.std)}`);
  }
  lines.push("Info:");
  lines.push(`is_truncated: avg - ${fmt(summary.truncated.mean)}, std - ${fmt(summary.truncated.std)}`);
  const stops = Object.entries(metadata.stop_conditions);
  if (stops.length > 0) lines.push(`stop_conditions: ${stops.map(([k, v]) => `${k}: ${v}`).join(", ")}`);
  const errorShare = `${(metadata.avg_error * 100).toFixed(1)}%`;
  const failed = rolloutErrorGroups(records);
  lines.push(`errors: ${failed.length > 0 ? c.red(errorShare) : errorShare}`);
  lines.push(...formatGroups(failed, options.verbose ?? false, c));
  const scoring = scoringErrorGroups(records);
  if (scoring.length > 0) {
    const counts = Object.entries(metadata.scoring_error_counts).map(([k, v]) => `${k}: ${v}`);
    lines.push(c.red(`reward function errors (scored 0): ${counts.join(", ")}`));
    lines.push(...formatGroups(scoring, options.verbose ?? false, c));
  }
  if (summary.timing) {
    lines.push("Timing:");
    for (const [phase, range] of Object.entries(summary.timing)) {
      const label = phase.replace(/_ms$/, "");
      lines.push(`${label}: min - ${ms(range.min)}, mean - ${ms(range.mean)}, max - ${ms(range.max)}`);
    }
    lines.push(`wall: ${metadata.time.toFixed(2)}s`);
  }
  if (metadata.usage) {
    lines.push("Usage:");
    lines.push(`input_tokens (avg): ${fmt(metadata.usage.input_tokens)}`);
    lines.push(`output_tokens (avg): ${fmt(metadata.usage.output_tokens)}`);
  }
  lines.push(...perRollout(summary, options.verbose ?? false, c));
  if (runDir) lines.push(`Saved to: ${runDir}`);
  return lines;
}

/** The `r1: [...]` lines of the reward and each metric, or one line saying how to see them. */
function perRollout(summary: RunSummary, verbose: boolean, c: Palette): string[] {
  if (summary.rows === 0) return [];
  if (!verbose && summary.examples > PER_ROLLOUT_MAX_EXAMPLES) {
    return [c.dim(`(per-rollout values of ${summary.examples} examples not shown: -v shows them)`)];
  }
  const lines = ["Per rollout:", "reward:"];
  summary.rewardsByRollout.forEach((values, i) => {
    lines.push(`r${i + 1}: ${list(values)}`);
  });
  for (const [metric, table] of Object.entries(summary.metricsByRollout)) {
    lines.push(`${metric}:`);
    table.forEach((values, i) => {
      lines.push(`r${i + 1}: ${list(values)}`);
    });
  }
  return lines;
}

/** One kind of error and what it said. */
interface ErrorGroup {
  /** e.g. "ModelHttpError", or "exact_match: TypeError" for a reward function. */
  kind: string;
  count: number;
  /** Distinct messages in the order they were first seen, each with how often it was. */
  messages: Array<{ text: string; count: number }>;
}

/** Rollouts that ended with an error, grouped by error class. */
function rolloutErrorGroups(records: readonly RolloutRecord[]): ErrorGroup[] {
  return group(records.flatMap((r) => (r.error ? [{ kind: r.error.error, text: r.error.message }] : [])));
}

/** Reward and metric functions that raised (they scored 0), grouped by function and error class. */
function scoringErrorGroups(records: readonly RolloutRecord[]): ErrorGroup[] {
  return group(
    records.flatMap((r) =>
      r.scoring_errors.map((s) => ({ kind: `${s.function}: ${s.error.error}`, text: s.error.message })),
    ),
  );
}

function group(items: Array<{ kind: string; text: string }>): ErrorGroup[] {
  const groups = new Map<string, { count: number; messages: Map<string, number> }>();
  for (const { kind, text } of items) {
    const entry = groups.get(kind) ?? { count: 0, messages: new Map<string, number>() };
    entry.count++;
    entry.messages.set(text, (entry.messages.get(text) ?? 0) + 1);
    groups.set(kind, entry);
  }
  return [...groups].map(([kind, { count, messages }]) => ({
    kind,
    count,
    messages: [...messages].map(([text, n]) => ({ text, count: n })),
  }));
}

/** Each kind with its count and first message; with -v every distinct message with its count. */
function formatGroups(groups: ErrorGroup[], verbose: boolean, c: Palette): string[] {
  return groups.flatMap(({ kind, count, messages }) => {
    if (!verbose) return [`  ${c.red(`${kind} (${count})`)}: ${oneLine(messages[0]?.text ?? "")}`];
    return [
      `  ${c.red(`${kind} (${count})`)}:`,
      ...messages.map(
        ({ text, count: n }) => `    ${n > 1 ? `${n}× ` : ""}${text.replace(/\s+/g, " ").trim()}`,
      ),
    ];
  });
}

function oneLine(text: string): string {
  return truncate(text.replace(/\s+/g, " ").trim(), 300);
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)}s` : `${value.toFixed(1)}ms`;
}

function formatConversation(messages: Messages, label: string): string[] {
  const lines = [`${label}:`];
  for (const message of messages) {
    const text = contentText(message.content).replace(/\s+/g, " ").trim();
    const calls =
      message.role === "assistant" && message.tool_calls?.length
        ? ` [tool calls: ${message.tool_calls.map((call) => `${call.function.name}(${call.function.arguments})`).join(", ")}]`
        : "";
    lines.push(`  ${message.role}: ${truncate(text, 300)}${truncate(calls, 200)}`);
  }
  return lines;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
