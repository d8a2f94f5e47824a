/**
 * Schema failures of a training config as messages a user can act on: the dotted key, the value it
 * had, what was expected; for an unknown key, the nearest key of the same table, or the table where
 * a key of that name lives (`temperature` at the top → `sampling.temperature`).
 */
import { closestMatch } from "@vf-rl/core/config";
import type { z } from "zod";
import { RENAMED_KEYS } from "./renamed-keys.ts";

/** One message per schema issue, each starting with where the key came from (the file, or its --flag). */
export function describeIssues(
  error: z.ZodError,
  schema: z.ZodType,
  raw: unknown,
  whereOf: (dottedKey: string) => string,
): string[] {
  const tables = tablesOf(schema);
  const messages: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    const dotted = path.join(".");
    if (issue.code === "unrecognized_keys") {
      const known = keysAt(schema, path);
      for (const key of issue.keys) {
        const full = dotted ? `${dotted}.${key}` : key;
        const renamed = RENAMED_KEYS.get(full);
        if (renamed !== undefined) {
          messages.push(`${whereOf(full)}: ${full} is now ${renamed}: rename it`);
          continue;
        }
        messages.push(`${whereOf(full)}: unknown key "${full}"${suggest(key, known, path, tables)}`);
      }
      continue;
    }
    const value = valueAt(raw, path);
    const shown = value === undefined ? "missing" : JSON.stringify(value);
    messages.push(`${whereOf(dotted)}: ${dotted || "(root)"} (${shown}): ${issue.message}`);
  }
  return messages;
}

/** The "did you mean" part of an unknown-key message. */
function suggest(
  key: string,
  known: readonly string[],
  path: readonly string[],
  tables: ReadonlyMap<string, readonly string[]>,
): string {
  // a union's keys are every variant's: this one is another variant's ([sampler] pools with type "standard")
  if (known.includes(key)) return `: it belongs to another type of [${path.join(".")}]; check its type`;
  const near = closestMatch(key, known);
  if (near) return `: did you mean "${[...path, near].join(".")}"?`;
  // A key of another table by name; a near name only for a top-level key (a table's own keys are
  // the likelier intent inside a table: [env.agent] max_turns is not [sampling] max_tokens).
  const topLevel = path.length === 0;
  for (const [table, keys] of tables) {
    const match = keys.includes(key) ? key : topLevel ? closestMatch(key, keys) : undefined;
    if (match && table !== path.filter((s) => !/^\d+$/.test(s)).join(".")) {
      return `: did you mean "${table ? `${table}.` : ""}${match}" (in [${table || "top level"}])?`;
    }
  }
  return known.length > 0 ? `: valid keys here are ${known.join(", ")}` : "";
}

/** The keys of the object schema at `path` (array indices step into elements). */
function keysAt(schema: z.ZodType, path: readonly string[]): string[] {
  let node: z.ZodType | undefined = schema;
  for (const segment of path) {
    if (node === undefined) return [];
    node = childOf(node, segment);
  }
  return node ? objectKeys(node) : [];
}

/** Every table of the schema (dotted path without indices) and its keys. */
function tablesOf(schema: z.ZodType): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  const visit = (node: z.ZodType, prefix: string): void => {
    const keys = objectKeys(node);
    if (keys.length === 0) return;
    tables.set(prefix, keys);
    for (const key of keys) {
      const child = childOf(node, key);
      if (child) visit(elementOf(child), prefix ? `${prefix}.${key}` : key);
    }
  };
  visit(schema, "");
  return tables;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
}

function defOf(node: z.ZodType): Def {
  return (node as unknown as { def: Def }).def;
}

/** Through optional, default and nullable wrappers. */
function unwrap(node: z.ZodType): z.ZodType {
  let current = node;
  for (let def = defOf(current); def.innerType; def = defOf(current)) current = def.innerType;
  return current;
}

function elementOf(node: z.ZodType): z.ZodType {
  const inner = unwrap(node);
  const def = defOf(inner);
  return def.type === "array" && def.element ? unwrap(def.element) : inner;
}

function childOf(node: z.ZodType, segment: string): z.ZodType | undefined {
  const inner = unwrap(node);
  const def = defOf(inner);
  if (def.type === "array") return def.element ? unwrap(def.element) : undefined;
  if (def.type === "object") return def.shape?.[segment];
  if (def.type === "union") {
    for (const option of def.options ?? []) {
      const child = childOf(option, segment);
      if (child) return child;
    }
  }
  return undefined;
}

function objectKeys(node: z.ZodType): string[] {
  const inner = unwrap(node);
  const def = defOf(inner);
  if (def.type === "object") return Object.keys(def.shape ?? {});
  if (def.type === "union") return [...new Set((def.options ?? []).flatMap(objectKeys))];
  return [];
}

function valueAt(raw: unknown, path: readonly string[]): unknown {
  let node = raw;
  for (const segment of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
