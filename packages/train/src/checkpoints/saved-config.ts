/**
 * How `--resume` compares the config a checkpoint saved with the config of the new attempt. A key
 * added to vf after the checkpoint was written is missing from the saved config; read through the
 * schema, it takes its default, which is what the run trained with, so it does not count as changed
 * (without this, every checkpoint written before a new key could never be resumed). Keys are
 * compared by value whatever their order in the JSON.
 */
import { TrainConfig } from "../config/train-config.ts";

/** The saved config's keys at their defaults where it lacks them; `keys` are left out of the reading. */
export function savedWithDefaults(
  saved: Record<string, unknown>,
  ignored: ReadonlySet<string>,
): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(saved).filter(([key]) => !ignored.has(key)));
  const omit = Object.fromEntries([...ignored].map((key) => [key, true] as const));
  const read = TrainConfig.omit(omit as Partial<Record<keyof TrainConfig, true>>).safeParse(kept);
  // a config vf can no longer read is compared as it was saved: the keys that differ are named
  return read.success ? { ...saved, ...toJson(read.data) } : saved;
}

/** Whether two JSON values are equal, object keys in any order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

function toJson(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
