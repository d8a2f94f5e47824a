/**
 * The settings a run must share with a saved one to continue it: resuming under other settings
 * would mix two experiments in one file.
 */
import { z } from "zod";
import type { SettingMismatch } from "../errors.ts";
import { isJsonObject } from "../records/json-object.ts";
import { normalizeSampling } from "../records/normalize-metadata.ts";
import type { RunMetadata } from "../records/run-metadata.ts";

/** What a new run asks for, in metadata.json's field names. */
export const ResumeSettings = z.object({
  env_args: z.record(z.string(), z.unknown()).default({}),
  /** Examples requested; negative means all. May grow over the saved run's, never shrink. */
  num_examples: z.number().int(),
  rollouts_per_example: z.number().int().positive(),
  shuffle: z.boolean().default(false),
  shuffle_seed: z.number().int().default(0),
  sampling_args: z.record(z.string(), z.unknown()).default({}),
  /** An agent run's harness id; absent for an environment's own run. */
  harness: z.string().optional(),
  /** An agent run's runtime id; absent for an environment's own run. */
  runtime: z.string().optional(),
});
/** See `ResumeSettings` (the schema). */
export type ResumeSettings = z.infer<typeof ResumeSettings>;

/** What a run is: its environment, model and settings. */
export interface RunIdentity {
  envId: string;
  model: string;
  settings: ResumeSettings;
}

/**
 * Every setting of `saved` that stops it from being resumed as `run`: env_id, model, harness,
 * runtime, rollouts_per_example, shuffle, shuffle_seed, env_args and sampling_args must be equal
 * (objects compared by value, key order and null-valued keys ignored; an environment's own run has
 * no harness or runtime, so an agent run never continues one, nor the reverse); num_examples may
 * only grow.
 */
export function settingsMismatches(saved: RunMetadata, run: RunIdentity): SettingMismatch[] {
  const s = run.settings;
  const pairs: Array<[string, unknown, unknown]> = [
    ["env_id", saved.env_id, run.envId],
    ["model", saved.model, run.model],
    ["harness", saved.harness, s.harness],
    ["runtime", saved.runtime, s.runtime],
    ["rollouts_per_example", saved.rollouts_per_example, s.rollouts_per_example],
    ["shuffle", saved.shuffle, s.shuffle],
    ["shuffle_seed", saved.shuffle_seed, s.shuffle_seed],
    ["env_args", saved.env_args, s.env_args],
    // Saved settings were normalised on reading (extra_body flattened, n: 1 dropped); so are these.
    ["sampling_args", saved.sampling_args, normalizeSampling(s.sampling_args)],
  ];
  const mismatches = pairs
    .filter(([, a, b]) => canonical(a) !== canonical(b))
    .map(([key, a, b]) => ({ key, saved: a, now: b }));
  if (!covers(s.num_examples, saved.num_examples)) {
    mismatches.push({ key: "num_examples", saved: saved.num_examples, now: s.num_examples });
  }
  return mismatches;
}

// Requesting all examples (negative) covers any saved count; a saved "all" needs "all" again.
function covers(requested: number, saved: number): boolean {
  if (requested < 0) return true;
  if (saved < 0) return false;
  return requested >= saved;
}

// JSON with sorted keys and null-valued keys dropped, so equal settings compare equal as strings.
function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== null && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}
