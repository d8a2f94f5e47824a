/**
 * Brings a metadata.json written by any verifiers version (or by vf) to the shape `RunMetadata`
 * validates. Older verifiers wrote `env` for `env_id`, `time_ms` for `time` (seconds), and each
 * metric's average as a top-level `avg_<metric>` key instead of inside `avg_metrics`.
 */
import { isJsonObject, type JsonObject, withoutNulls } from "./json-object.ts";

/** Top-level `avg_*` keys that are fields in their own right, not a metric's average. */
const AVG_FIELDS = new Set(["avg_reward", "avg_metrics", "avg_error"]);

/** The raw metadata object rewritten into today's field names; validation is left to the caller. */
export function normalizeMetadata(raw: JsonObject): JsonObject {
  // A null where a field has a default means "not recorded"; let the default apply.
  const meta = withoutNulls(raw);

  if (meta.env_id === undefined && typeof meta.env === "string") meta.env_id = meta.env;
  if (meta.time === undefined && typeof meta.time_ms === "number") meta.time = meta.time_ms / 1000;
  if (typeof meta.date === "string") meta.date = isoDate(meta.date);

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

// verifiers wrote "2025-09-30 00:47:48" (local time, no zone); ISO 8601 wants the "T".
function isoDate(date: string): string {
  return /^\d{4}-\d{2}-\d{2} \d/.test(date) ? date.replace(" ", "T") : date;
}
