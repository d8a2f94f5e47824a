/**
 * `--fail-under`'s values: a gate as text, read without zod, so declaring `vf eval`'s flags loads
 * no schema (gates.ts has the config's schema and measures gates on a run).
 *
 * @example parseGate("0.8")           // { measure: "reward", threshold: 0.8 }
 * @example parseGate("pass@4=0.5")    // { measure: "pass@4", threshold: 0.5 }
 * @example parseGate("exact_match=1") // { measure: "exact_match", threshold: 1 }
 */
import { UsageError } from "../../cli-errors.ts";

/** One gate: what is measured ("reward", "pass@K" or a metric's name) and the least it may be. */
export interface GateValue {
  measure: string;
  threshold: number;
}

/** A pass@k measure; its group is k. */
export const PASS_AT = /^pass@(\d+)$/;

/** `reward`, `pass@K` or a metric name, `=`, then a number; a bare number gates the reward. */
export function parseGate(text: string): GateValue {
  const trimmed = text.trim();
  const at = trimmed.lastIndexOf("=");
  const measure = at === -1 ? "reward" : trimmed.slice(0, at).trim();
  const number = at === -1 ? trimmed : trimmed.slice(at + 1).trim();
  const threshold = Number(number);
  if (measure === "" || number === "" || !Number.isFinite(threshold)) {
    throw new UsageError(
      `--fail-under "${text}" is not a gate: give a reward (0.8), a metric and its least average (exact_match=0.9) or pass@k (pass@4=0.5)`,
    );
  }
  const k = PASS_AT.exec(measure)?.[1];
  if (k !== undefined && Number(k) < 1) {
    throw new UsageError(`--fail-under "${text}": k of pass@k is at least 1, e.g. pass@1=0.5`);
  }
  return { measure, threshold };
}

/** commander's parser of the repeatable flag: each use adds a gate. */
export function gateFlag(value: string, previous: GateValue[] | undefined): GateValue[] {
  return [...(previous ?? []), parseGate(value)];
}
