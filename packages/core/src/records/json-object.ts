/** Narrowing parsed JSON: results and metadata files are read as `unknown` and checked piece by piece. */

/** A JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object, false for null, arrays and scalars. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of the object without its null-valued keys (a null in an old file means "not recorded"). */
export function withoutNulls(value: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}
