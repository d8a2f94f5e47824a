/**
 * Brings one results.jsonl row written by any verifiers version (or by vf) to the shape
 * `RolloutRecord` validates. Rows of older verifiers differ in these ways, each mapped here:
 * - `id` instead of `example_id`;
 * - `prompt`/`completion` as plain strings (completion-format environments): become one user /
 *   assistant message;
 * - tool calls stored as JSON strings: parsed to objects; `tool_calls: null` dropped; tool messages
 *   without `tool_call_id`: given the ids of the preceding assistant's calls, in order;
 * - `generation_ms`/`scoring_ms`/`total_ms` at the top level instead of `timing` (phases it did not
 *   record are 0);
 * - metrics only as flattened top-level numbers (no `metrics`): every numeric key that is not a
 *   record field or an old timing field (unless the metadata averaged a metric of that name);
 * - the tool definitions under `info.oai_tools`: moved to `tool_defs`;
 * - `error` as a plain string: becomes `{ error: "Error", message }`.
 * `rollout_index`, when missing, is assigned by the reader (order within an example).
 */
import { ToolDefinition } from "../tools/tool.ts";
import { isJsonObject, type JsonObject, withoutNulls } from "./json-object.ts";
import { RECORD_FIELDS } from "./record-line.ts";

/** Top-level numbers of older rows that are not metrics. */
const LEGACY_FIELDS = new Set(["id", "generation_ms", "scoring_ms", "total_ms", "time_ms"]);

const TIMING_FIELDS = [
  "start_time",
  "setup_ms",
  "generation_ms",
  "model_ms",
  "env_ms",
  "scoring_ms",
  "total_ms",
] as const;

/** Fields of `RolloutRecord` that have a default or are optional: a null there means "not recorded". */
const UNRECORDED_IF_NULL = [
  "rollout_index",
  "answer",
  "info",
  "task",
  "metrics",
  "scoring_errors",
  "is_completed",
  "is_truncated",
  "trajectory",
  "timing",
  "token_usage",
  "tool_defs",
  "state",
] as const;

/** Notes about a row that was loaded but changed on the way (for the reader's warnings). */
export interface RowNormalization {
  row: JsonObject;
  notes: string[];
}

/**
 * The row rewritten into today's field names; validation is left to the caller.
 * `metricNames` are the metric names the run's metadata averaged (`avg_metrics` keys).
 */
export function normalizeRow(raw: JsonObject, metricNames: ReadonlySet<string>): RowNormalization {
  const row: JsonObject = { ...raw };
  const notes: string[] = [];
  for (const key of UNRECORDED_IF_NULL) if (row[key] === null) delete row[key];

  if (row.example_id === undefined && typeof row.id === "number") row.example_id = row.id;
  if (typeof row.answer === "number") row.answer = String(row.answer);
  if (typeof row.info === "string") row.info = parseInfo(row.info);
  row.prompt = normalizeMessages(row.prompt, "user");
  row.completion = normalizeMessages(row.completion, "assistant");
  if (typeof row.error === "string") row.error = { error: "Error", message: row.error };

  if (row.metrics === undefined) row.metrics = flattenedMetrics(raw, metricNames);
  row.timing = normalizeTiming(row.timing, raw);
  if (isJsonObject(row.token_usage)) row.token_usage = withoutNulls(row.token_usage);
  if (Array.isArray(row.trajectory)) row.trajectory = row.trajectory.map(normalizeStep);

  if (row.tool_defs === undefined && isJsonObject(row.info) && row.info.oai_tools !== undefined) {
    const tools = ToolDefinition.array().safeParse(row.info.oai_tools);
    if (tools.success) {
      const { oai_tools: _moved, ...info } = row.info;
      row.tool_defs = tools.data;
      row.info = info;
    } else {
      notes.push("info.oai_tools are not valid tool definitions; left in info");
    }
  }
  return { row, notes };
}

function flattenedMetrics(raw: JsonObject, metricNames: ReadonlySet<string>): Record<string, number> {
  const metrics: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== "number" || RECORD_FIELDS.has(key)) continue;
    // `total_ms` and friends are timings, unless the metadata says a metric bore that name.
    if (!LEGACY_FIELDS.has(key) || metricNames.has(key)) metrics[key] = value;
  }
  return metrics;
}

function normalizeTiming(timing: unknown, raw: JsonObject): unknown {
  const source = isJsonObject(timing) ? timing : raw;
  if (!isJsonObject(timing) && !TIMING_FIELDS.some((f) => typeof raw[f] === "number")) return timing;
  const out: Record<string, number> = {};
  for (const field of TIMING_FIELDS) {
    const value = source[field];
    out[field] = typeof value === "number" ? value : 0;
  }
  return out;
}

function normalizeStep(step: unknown): unknown {
  if (!isJsonObject(step)) return step;
  const tokens = isJsonObject(step.tokens) ? step.tokens : null;
  const hasIds = tokens && Array.isArray(tokens.prompt_ids) && Array.isArray(tokens.completion_ids);
  return {
    finish_reason: typeof step.finish_reason === "string" ? step.finish_reason : null,
    is_truncated: step.is_truncated === true,
    tokens: hasIds
      ? {
          prompt_ids: tokens.prompt_ids,
          completion_ids: tokens.completion_ids,
          completion_logprobs: Array.isArray(tokens.completion_logprobs) ? tokens.completion_logprobs : [],
        }
      : null,
  };
}

function normalizeMessages(value: unknown, role: "user" | "assistant"): unknown {
  if (typeof value === "string") return [{ role, content: value }];
  if (!Array.isArray(value)) return value;
  let pendingIds: string[] = [];
  return value.map((message) => {
    if (!isJsonObject(message)) return message;
    const out = withoutNulls(message);
    if (message.role === "assistant") {
      if (message.content === null) out.content = null;
      if (Array.isArray(out.tool_calls)) {
        const calls = out.tool_calls.map(normalizeToolCall);
        out.tool_calls = calls;
        pendingIds = calls.flatMap((call) =>
          isJsonObject(call) && typeof call.id === "string" ? [call.id] : [],
        );
      }
    } else if (out.content === undefined) {
      out.content = "";
    }
    if (message.role === "tool" && typeof out.tool_call_id !== "string") {
      out.tool_call_id = pendingIds.shift() ?? "";
    }
    return out;
  });
}

function normalizeToolCall(call: unknown): unknown {
  let parsed = call;
  if (typeof call === "string") {
    try {
      parsed = JSON.parse(call);
    } catch {
      return call; // left as is: validation reports the row
    }
  }
  if (
    isJsonObject(parsed) &&
    isJsonObject(parsed.function) &&
    typeof parsed.function.arguments !== "string"
  ) {
    return {
      ...parsed,
      function: { ...parsed.function, arguments: JSON.stringify(parsed.function.arguments ?? {}) },
    };
  }
  return parsed;
}

function parseInfo(info: string): unknown {
  try {
    return JSON.parse(info);
  } catch {
    return info; // left as is: validation reports the row
  }
}
