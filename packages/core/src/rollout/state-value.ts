/**
 * A rollout's state read by key, the way state columns (`-C`) and headers from state
 * (`--header-from-state`) name it: the environment's own `data` first, then the state's fields by
 * name, camelCase or verifiers' snake_case (`trajectory_id` is `trajectoryId`, `example_id` is
 * `exampleId`).
 */
import type { RolloutState } from "./rollout-state.ts";

/** The value `key` names in `state`, or undefined when nothing has that name. */
export function stateValue<Data>(state: RolloutState<Data>, key: string): unknown {
  const data = state.data as Record<string, unknown> | undefined;
  if (data !== undefined && data !== null && key in data) return data[key];
  const fields = state as unknown as Record<string, unknown>;
  if (key in fields) return fields[key];
  return fields[camelCase(key)];
}

// Keys are read on every model request (headers from state), and a run names only a few.
const camelKeys = new Map<string, string>();

/** `trajectory_id` as `trajectoryId`, remembered. */
function camelCase(key: string): string {
  let camel = camelKeys.get(key);
  if (camel === undefined) {
    camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    camelKeys.set(key, camel);
  }
  return camel;
}

/**
 * Per-request headers from the state: each header maps to a state key, and a header whose key has no
 * value (undefined or null) is left out. Strings are sent as they are, other values as JSON.
 *
 * @example headersFromState(state, { "X-Session-ID": "trajectory_id" }) // { "X-Session-ID": "3f2b..." }
 */
export function headersFromState<Data>(
  state: RolloutState<Data>,
  mapping: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header in mapping) {
    const value = stateValue(state, mapping[header]!);
    if (value === undefined || value === null) continue;
    headers[header] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return headers;
}
