/** Parsers for flag values, each failing with a usage error that names the flag. */
import { UsageError } from "./cli-errors.ts";

/**
 * The longest time limit in seconds: Node's timers hold at most 2^31-1 ms (about 24 days) and
 * fire at once past it, which would end every rollout as timed out.
 */
export const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** `value` as a message quotes it: whole if short, else its start. */
function quoted(value: string): string {
  return value.length <= 60 ? value : `${value.slice(0, 60)}... (${value.length} characters)`;
}

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
      throw new UsageError(`${flag} must be a JSON object, got ${quoted(value)}: e.g. ${flag} '{"key": 1}'`);
    }
    return parsed as Record<string, unknown>;
  };
}

/** Any text but none: an empty value (`-m ""`) is a slip, never what was meant. */
export function textFlag(flag: string, fix = "give it a value, or leave the flag out") {
  return (value: string): string => {
    if (value.trim() === "") throw new UsageError(`${flag} is empty: ${fix}`);
    return value;
  };
}

/**
 * A whole number of at least `min`. Numbers past 2^53 are refused by name: they would round
 * silently, and a count that large is a typo.
 */
export function integerFlag(flag: string, min = Number.NEGATIVE_INFINITY) {
  return (value: string): number => {
    const n = Number(value);
    const bound = min > -Infinity ? ` ≥ ${min}` : "";
    if (value.trim() === "" || !Number.isInteger(n) || n < min) {
      throw new UsageError(`${flag} must be a whole number${bound}, got "${value}"`);
    }
    if (!Number.isSafeInteger(n)) {
      throw new UsageError(`${flag} is too large (${value}): use a number below ${Number.MAX_SAFE_INTEGER}`);
    }
    return n;
  };
}

/** A number of threads (at least 1), or "auto" for the engine's choice. */
export function threadsFlag(flag: string) {
  const parse = integerFlag(flag, 1);
  return (value: string): number | "auto" => {
    if (value === "auto") return "auto";
    try {
      return parse(value);
    } catch {
      throw new UsageError(`${flag} must be a whole number ≥ 1 or "auto", got "${value}"`);
    }
  };
}

/** A count where -1 means "all": `-n -5` is a mistake, not a synonym for all. */
export function countOrAllFlag(flag: string) {
  const parse = integerFlag(flag);
  return (value: string): number => {
    const n = parse(value);
    if (n === 0 || n < -1) throw new UsageError(`${flag} must be at least 1, or -1 for all, got "${value}"`);
    return n;
  };
}

/** A TCP port, 0 for any free one. */
export function portFlag(flag: string) {
  const parse = integerFlag(flag, 0);
  return (value: string): number => {
    const n = parse(value);
    if (n > 65535)
      throw new UsageError(`${flag} must be a port from 0 to 65535 (0: any free port), got "${value}"`);
    return n;
  };
}

/**
 * A finite number; with `positive`, greater than zero (a time limit of 0 or less means nothing);
 * with `min` and `max`, within them (a temperature below 0 means nothing).
 */
export function numberFlag(flag: string, options: { positive?: boolean; min?: number; max?: number } = {}) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n))
      throw new UsageError(`${flag} must be a number, got "${value}"`);
    if (options.positive && n <= 0) throw new UsageError(`${flag} must be greater than 0, got "${value}"`);
    if (options.min !== undefined && n < options.min) {
      throw new UsageError(`${flag} must be at least ${options.min}, got "${value}"`);
    }
    if (options.max !== undefined && n > options.max) {
      throw new UsageError(`${flag} must be at most ${options.max}, got "${value}"`);
    }
    return n;
  };
}

/**
 * Whether `value` is an http:// or https:// URL: the check of core's HttpUrl (@vf-rl/core/config,
 * the configs' schema), written here too because flags are parsed at start-up, where loading the
 * config module (its TOML parser) would cost every command about 10 ms.
 */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** An http:// or https:// URL; `example` is one the message shows. */
export function httpUrlFlag(flag: string, example: string) {
  return (value: string): string => {
    if (isHttpUrl(value)) return value;
    const must = URL.canParse(value) ? "an http:// or https:// URL" : "a URL";
    throw new UsageError(`${flag} must be ${must}, got "${value}": e.g. ${flag} ${example}`);
  };
}

/**
 * `--header-from-state "Name: state_key"` (verifiers' form; "Name=state_key" works too), repeatable:
 * the header's value is read from each rollout's state.
 */
export function headerFromStateFlag(
  value: string,
  previous: Record<string, string> = {},
): Record<string, string> {
  const at = value.search(/[:=]/);
  const name = at > 0 ? value.slice(0, at).trim() : "";
  const key = at > 0 ? value.slice(at + 1).trim() : "";
  if (name === "" || key === "") {
    throw new UsageError(
      `--header-from-state must look like "Name: state_key", got "${value}": e.g. --header-from-state "X-Session-ID: trajectory_id"`,
    );
  }
  return { ...previous, [name]: key };
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
