/**
 * Brings a metadata.json written by any verifiers release (or by vf) to the shape `RunMetadata`
 * validates. What changed over verifiers' history, each mapped here (results/fixtures/verifiers-* holds a
 * run in each shape):
 * - 0.1.2.post1: as 0.1.3, but the sampling settings as top-level `max_tokens` and `temperature`
 *   (null when not given), with no `sampling_args`.
 * - 0.1.3: `env` for `env_id`; `date` "YYYY-MM-DD" and `time` "HH:MM:SS", the clock time the run
 *   was saved (not a duration); each metric's average as a top-level `avg_<metric>` key.
 * - 0.1.4–0.1.5: `date` "YYYY-MM-DD HH:MM:SS"; `time_ms`, the run's milliseconds.
 * - 0.1.6–0.1.12: `env_id`, `env_args`, `base_url`, `avg_metrics`, `state_columns`, no `date`;
 *   `sampling_args` with `n: 1` and an `extra_body` object (top_k, min_p, ...); a run saved while in
 *   progress holds placeholders (`avg_reward` 0.0, `time_ms` 0.0). From 0.1.10: `avg_error`,
 *   `usage` (null when not tracked), `version_info`, `tools` (OpenAI's shape); from 0.1.11:
 *   `pass_at_k`, `pass_all_k`, `pass_threshold`, and `tools` flat (`{name, description, parameters}`).
 * - 0.1.14 on: `time` in seconds; 0.2 adds `shuffle`, `shuffle_seed` (null when unset), `name`, `cost`.
 * Averages are not trusted here: readers recompute `avg_reward` from the rows (see read-run.ts).
 */
import { isJsonObject, type JsonObject, withoutNulls } from "./json-object.ts";
import { normalizeTools } from "./normalize-tools.ts";

/** The sampling settings verifiers 0.1.2.post1 wrote at the top level, the only ones its vf-eval had. */
const TOP_LEVEL_SAMPLING = ["max_tokens", "temperature"] as const;

/** Top-level `avg_*` keys that are fields in their own right, not a metric's average. */
const AVG_FIELDS = new Set(["avg_reward", "avg_metrics", "avg_error"]);

/** The raw metadata object rewritten into today's field names; validation is left to the caller. */
export function normalizeMetadata(raw: JsonObject): JsonObject {
  // A null where a field has a default means "not recorded"; let the default apply.
  const meta = withoutNulls(raw);

  if (meta.env_id === undefined && typeof meta.env === "string") meta.env_id = meta.env;
  if (meta.sampling_args === undefined) {
    const sampling: JsonObject = {};
    for (const key of TOP_LEVEL_SAMPLING) {
      if (meta[key] !== undefined) sampling[key] = meta[key];
      delete meta[key];
    }
    meta.sampling_args = sampling;
  }
  if (typeof meta.time === "string") {
    // 0.1.3: the wall-clock time of day, which completes the date; the run's length is unknown.
    if (typeof meta.date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(meta.date)) {
      meta.date = `${meta.date}T${meta.time}`;
    }
    delete meta.time;
  }
  if (meta.time === undefined && typeof meta.time_ms === "number") meta.time = meta.time_ms / 1000;
  if (typeof meta.date === "string") meta.date = isoDate(meta.date);
  if (isJsonObject(meta.sampling_args)) meta.sampling_args = normalizeSampling(meta.sampling_args);
  if (meta.tools !== undefined) meta.tools = normalizeTools(meta.tools);

  const avgMetrics = isJsonObject(meta.avg_metrics) ? { ...meta.avg_metrics } : {};
  if (Object.keys(avgMetrics).length === 0) {
    for (const [key, value] of Object.entries(meta)) {
      if (key.startsWith("avg_") && !AVG_FIELDS.has(key) && typeof value === "number") {
        avgMetrics[key.slice("avg_".length)] = value;
      }
    }
  }
  meta.avg_metrics = avgMetrics;

  if (isJsonObject(meta.usage)) meta.usage = withoutNulls(meta.usage);
  return meta;
}

/**
 * Sampling settings as vf states them: `extra_body`'s fields at the top level (vf merges it into
 * the request the same way), `n: 1` dropped (every request asks for one choice), nulls dropped.
 * So a verifiers run compares equal to a vf run with the same settings when resuming.
 */
export function normalizeSampling(sampling: JsonObject): JsonObject {
  const { extra_body: extra, ...rest } = sampling;
  const merged = withoutNulls({ ...(isJsonObject(extra) ? extra : {}), ...rest });
  if (extra !== undefined && !isJsonObject(extra)) merged.extra_body = extra;
  if (merged.n === 1) delete merged.n;
  return merged;
}

// verifiers wrote "2025-09-30 00:47:48" (local time, no zone); ISO 8601 wants the "T".
function isoDate(date: string): string {
  return /^\d{4}-\d{2}-\d{2} \d/.test(date) ? date.replace(" ", "T") : date;
}
