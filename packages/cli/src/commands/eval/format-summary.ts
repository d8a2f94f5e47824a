/**
 * The summary `vf eval` prints after a run, laid out as verifiers prints it: the evaluation, one
 * example, rewards with one line per rollout index, pass@k and pass^k, each metric, stop
 * conditions and errors, timing and token usage.
 */
import { contentText, type Messages } from "@vf-rl/core";
import type { RolloutRecord, RunMetadata, RunSummary } from "@vf-rl/core/results";

export interface SummaryInput {
  metadata: RunMetadata;
  summary: RunSummary;
  records: RolloutRecord[];
  runDir?: string;
}

const fmt = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3));
const list = (values: number[]) => `[${values.map(fmt).join(", ")}]`;

export function formatSummary({ metadata, summary, records, runDir }: SummaryInput): string[] {
  const lines: string[] = [];
  lines.push("--- Evaluation ---");
  lines.push(`Environment: ${metadata.env_id}`);
  lines.push(`Model: ${metadata.model}`);
  lines.push(`Provider: ${metadata.base_url}`);
  lines.push(`Examples: ${summary.examples}`);
  lines.push(`Rollouts per example: ${metadata.rollouts_per_example}`);
  const example = records[0];
  if (example) {
    lines.push("--- Example ---");
    lines.push(...formatConversation(example.prompt, "prompt"));
    lines.push(...formatConversation(example.completion, "completion"));
    lines.push(`reward: ${fmt(example.reward)}`);
  }
  lines.push("--- All ---");
  lines.push("Rewards:");
  lines.push(`reward: avg - ${fmt(summary.reward.mean)}, std - ${fmt(summary.reward.std)}`);
  summary.rewardsByRollout.forEach((values, i) => {
    lines.push(`r${i + 1}: ${list(values)}`);
  });
  const passAt = Object.entries(metadata.pass_at_k);
  if (passAt.length > 0) {
    lines.push(`pass@k: ${passAt.map(([k, v]) => `${k}=${fmt(v)}`).join(", ")}`);
    lines.push(
      `pass^k: ${Object.entries(metadata.pass_all_k)
        .map(([k, v]) => `${k}=${fmt(v)}`)
        .join(", ")}`,
    );
  }
  for (const [name, spread] of Object.entries(summary.metrics)) {
    lines.push(`${name}: avg - ${fmt(spread.mean)}, std - ${fmt(spread.std)}`);
    (summary.metricsByRollout[name] ?? []).forEach((values, i) => {
      lines.push(`r${i + 1}: ${list(values)}`);
    });
  }
  lines.push("Info:");
  lines.push(`is_truncated: avg - ${fmt(summary.truncated.mean)}, std - ${fmt(summary.truncated.std)}`);
  const stops = Object.entries(metadata.stop_conditions);
  if (stops.length > 0) lines.push(`stop_conditions: ${stops.map(([k, v]) => `${k}: ${v}`).join(", ")}`);
  lines.push(`errors: ${(metadata.avg_error * 100).toFixed(1)}%${breakdown(metadata.error_counts)}`);
  const scoring = Object.entries(metadata.scoring_error_counts);
  if (scoring.length > 0) {
    lines.push(`reward function errors (scored 0): ${scoring.map(([k, v]) => `${k}: ${v}`).join(", ")}`);
  }
  if (summary.timing) {
    lines.push("Timing:");
    for (const [phase, range] of Object.entries(summary.timing)) {
      const name = phase.replace(/_ms$/, "");
      lines.push(`${name}: min - ${ms(range.min)}, mean - ${ms(range.mean)}, max - ${ms(range.max)}`);
    }
    lines.push(`wall: ${metadata.time.toFixed(2)}s`);
  }
  if (metadata.usage) {
    lines.push("Usage:");
    lines.push(`input_tokens (avg): ${fmt(metadata.usage.input_tokens)}`);
    lines.push(`output_tokens (avg): ${fmt(metadata.usage.output_tokens)}`);
  }
  if (runDir) lines.push(`Saved to: ${runDir}`);
  return lines;
}

function breakdown(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? "" : ` (${entries.map(([k, v]) => `${k}: ${v}`).join(", ")})`;
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
        ? ` [tool calls: ${message.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(", ")}]`
        : "";
    lines.push(`  ${message.role}: ${truncate(text, 300)}${truncate(calls, 200)}`);
  }
  return lines;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
