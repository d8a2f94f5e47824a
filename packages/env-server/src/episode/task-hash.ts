/**
 * A task's content hash as verifiers v1 computes `Task.hash`: SHA-256 of `json.dumps(data,
 * sort_keys=True)` over the task data without null fields. Python's json.dumps separates with ", "
 * and ": " and escapes every non-ASCII character as \uXXXX; this writes the same text.
 */
import { createHash } from "node:crypto";

/** The hex SHA-256 of the task data, nulls dropped, as verifiers' `task_key`. */
export function taskHash(data: Record<string, unknown>): string {
  return createHash("sha256")
    .update(pythonJson(dropNulls(data)))
    .digest("hex");
}

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, dropNulls(v)]),
    );
  }
  return value;
}

/** `json.dumps(value, sort_keys=True)` of Python. */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "string") return asciiJsonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  const keys = Object.keys(value as object).sort(byCodePoint);
  const record = value as Record<string, unknown>;
  return `{${keys.map((k) => `${asciiJsonString(k)}: ${pythonJson(record[k])}`).join(", ")}}`;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pythonNumber(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  return String(n);
}

function asciiJsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
