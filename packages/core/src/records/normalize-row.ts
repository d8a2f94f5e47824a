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
 * - the tool definitions under `info.oai_tools` (0.1.3–0.1.9) or a top-level `oai_tools` (0.1.10):
 *   moved to `tool_defs`; flat `{name, description, parameters}` tools (0.1.11 on): OpenAI's shape;
 * - `error` as a plain string (0.1.9 saved the exception's repr, `InfraError('...')`): becomes
 *   `{ error: <class name, or "Error">, message }`; an error object without `message` (0.1.10–0.1.14
 *   saved only the chain): the chain's text is the message;
 * - `timing` as spans in seconds (0.1.14 on: `{setup: {start, end, duration}, model: {spans,
 *   duration}, ..., total}`): become the phases' milliseconds.
 * `rollout_index`, when missing, is assigned by the reader (order within an example).
 */
import { ToolDefinition } from "../tools/tool.ts";
import { isJsonObject, type JsonObject, withoutNulls } from "./json-object.ts";
import { normalizeTools } from "./normalize-tools.ts";
import { RECORD_FIELDS } from "./record-line.ts";
import { RolloutTiming } from "./rollout-record.ts";

/** Top-level numbers of older rows that are not metrics. */
const LEGACY_FIELDS = new Set(["id", "generation_ms", "scoring_ms", "total_ms", "time_ms"]);

const TIMING_FIELDS = RolloutTiming.keyof().options;

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
  row.error = normalizeError(row.error);

  if (row.metrics === undefined) row.metrics = flattenedMetrics(raw, metricNames);
  row.timing = normalizeTiming(row.timing, raw);
  if (isJsonObject(row.token_usage)) row.token_usage = withoutNulls(row.token_usage);
  if (Array.isArray(row.trajectory)) row.trajectory = row.trajectory.map(normalizeStep);

  if (row.tool_defs === undefined && Array.isArray(raw.oai_tools)) {
    row.tool_defs = raw.oai_tools;
    delete row.oai_tools;
  }
  if (row.tool_defs !== undefined) row.tool_defs = normalizeTools(row.tool_defs);
  if (row.tool_defs === undefined && isJsonObject(row.info) && row.info.oai_tools !== undefined) {
    const tools = ToolDefinition.array().safeParse(normalizeTools(row.info.oai_tools));
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

function normalizeError(error: unknown): unknown {
  if (typeof error === "string") {
    // A Python repr such as "InfraError('timed out')" names the class.
    const name = /^([A-Za-z_][\w.]*)\(/.exec(error)?.[1]?.split(".").pop();
    return { error: name ?? "Error", message: error };
  }
  if (isJsonObject(error) && typeof error.error === "string" && typeof error.message !== "string") {
    const chain = error.error_chain_str ?? error.error_chain_repr;
    return { ...error, message: typeof chain === "string" ? chain : error.error };
  }
  return error;
}

// Phases of verifiers' span timing (seconds) and the field each fills (milliseconds).
const SPAN_PHASES = [
  ["setup", "setup_ms"],
  ["generation", "generation_ms"],
  ["model", "model_ms"],
  ["env", "env_ms"],
  ["scoring", "scoring_ms"],
] as const;

function normalizeTiming(timing: unknown, raw: JsonObject): unknown {
  if (isJsonObject(timing) && SPAN_PHASES.some(([phase]) => isJsonObject(timing[phase]))) {
    const seconds = (value: unknown) =>
      isJsonObject(value) && typeof value.duration === "number" ? value.duration : 0;
    const out: Record<string, number> = {
      start_time: typeof timing.start_time === "number" ? timing.start_time : 0,
      total_ms: (typeof timing.total === "number" ? timing.total : 0) * 1000,
    };
    for (const [phase, field] of SPAN_PHASES) out[field] = seconds(timing[phase]) * 1000;
    return out;
  }
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
