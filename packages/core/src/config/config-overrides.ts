/**
 * Command-line overrides of config keys, the one mechanism vf's configs share (vf train's keys, vf
 * eval's settings over a config's evaluations): `--max_steps 5`, `--sampling.temperature=0.7`,
 * `--env.args.min_turns 3` (into the only [[env]], or `--env.1.id` for the second), `--max-steps`
 * (dashes read as underscores, except inside `args`). A value is read as a TOML value (5, 0.7,
 * true, [1, 2], { a = 1 }, "text"), and as plain text when it is not one (reverse-text, ./ckpt).
 * A flag followed by another flag or by nothing is `true`.
 */

import { parse as parseToml } from "smol-toml";
import { ConfigError } from "../errors.ts";

/** One `--key.path value` from the command line. */
export interface ConfigOverride {
  /** Key segments; numeric segments index arrays of tables. */
  path: string[];
  value: unknown;
  /** As written, for messages. */
  flag: string;
}

/** Reads `--key.path value` pairs; anything that is not a `--flag` where one is expected is an error. */
export function parseOverrides(args: readonly string[]): ConfigOverride[] {
  const overrides: ConfigOverride[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--") || arg === "--") {
      throw new ConfigError(
        `unexpected argument "${arg}": overrides are written --key.path value (e.g. --max_steps 5 --sampling.temperature 0.7)`,
      );
    }
    const equals = arg.indexOf("=");
    const key = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    let text: string | undefined;
    if (equals !== -1) text = arg.slice(equals + 1);
    else if (i + 1 < args.length && !isFlag(args[i + 1]!)) text = args[++i]!;
    if (key === "" || key.split(".").some((s) => s === "")) {
      throw new ConfigError(`"${arg}" names no key: write --key.path value, e.g. --sampling.max_tokens 64`);
    }
    overrides.push({
      path: keySegments(key),
      value: text === undefined ? true : readValue(text),
      flag: `--${key}`,
    });
  }
  return overrides;
}

/** Sets each override into `raw` (a parsed TOML document), creating tables on the way. */
export function applyOverrides(raw: Record<string, unknown>, overrides: readonly ConfigOverride[]): void {
  for (const { path, value, flag } of overrides) {
    let node: unknown = raw;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const last = i === path.length - 1;
      if (Array.isArray(node)) {
        if (!/^\d+$/.test(segment)) {
          // `--env.id x` with a single [[env]] table means that table
          if (node.length !== 1) {
            throw new ConfigError(
              `${flag}: ${path.slice(0, i).join(".")} has ${node.length} tables: name one by index, e.g. --${[...path.slice(0, i), "0", ...path.slice(i)].join(".")}`,
            );
          }
          node = node[0];
          i -= 1; // the segment is a key of that table: read it again there
          continue;
        }
        const index = Number(segment);
        if (index > node.length) {
          throw new ConfigError(
            `${flag}: ${path.slice(0, i).join(".")} has ${node.length} tables, so index ${index} is out of range: use 0 to ${node.length}`,
          );
        }
        if (last) node[index] = value;
        else node = node[index] ??= {};
        continue;
      }
      if (typeof node !== "object" || node === null) {
        throw new ConfigError(
          `${flag}: ${path.slice(0, i).join(".")} is a value, not a table: override it whole, e.g. --${path.slice(0, i).join(".")} ...`,
        );
      }
      const table = node as Record<string, unknown>;
      if (last) table[segment] = value;
      else {
        const wantsArray = /^\d+$/.test(path[i + 1]!);
        table[segment] ??= wantsArray ? [] : {};
        node = table[segment];
      }
    }
  }
}

function isFlag(arg: string): boolean {
  return arg.startsWith("--") && arg.length > 2 && !/^--?\d/.test(arg);
}

/** Dashes become underscores in key names, but not below `args` (an environment's own keys). */
function keySegments(key: string): string[] {
  const segments = key.split(".");
  const argsAt = segments.indexOf("args");
  return segments.map((s, i) => (argsAt !== -1 && i > argsAt ? s : s.replaceAll("-", "_")));
}

/** A TOML value when the text is one, else the text itself. */
function readValue(text: string): unknown {
  try {
    return parseToml(`value = ${text}`).value;
  } catch {
    return text;
  }
}
