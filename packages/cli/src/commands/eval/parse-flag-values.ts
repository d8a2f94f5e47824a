/** Parsers for flag values, each failing with a usage error that names the flag. */
import { UsageError } from "../../cli-errors.ts";

export function jsonObjectFlag(flag: string) {
  return (value: string): Record<string, unknown> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new UsageError(`${flag} must be a JSON object (${detail}): e.g. ${flag} '{"key": 1}'`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new UsageError(`${flag} must be a JSON object, got ${value}: e.g. ${flag} '{"key": 1}'`);
    }
    return parsed as Record<string, unknown>;
  };
}

export function integerFlag(flag: string, min = Number.NEGATIVE_INFINITY) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      throw new UsageError(`${flag} must be an integer${min > -Infinity ? ` ≥ ${min}` : ""}, got "${value}"`);
    }
    return n;
  };
}

export function numberFlag(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n))
      throw new UsageError(`${flag} must be a number, got "${value}"`);
    return n;
  };
}

/** `--header "Name: value"`, repeatable. */
export function headerFlag(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const colon = value.indexOf(":");
  if (colon <= 0) throw new UsageError(`--header must look like "Name: value", got "${value}"`);
  return { ...previous, [value.slice(0, colon).trim()]: value.slice(colon + 1).trim() };
}

export function listFlag(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
