/**
 * Score gates for CI (`--fail-under`, `fail_under` in a config): a threshold on a run's average
 * reward, one metric's average, or pass@k, read from text and measured on a finished run. A run
 * that scores below a gate makes `vf eval` exit with EXIT_BELOW_GATE, apart from a run that could
 * not run (1) and bad usage (2). Read without zod, so declaring `vf eval`'s flags loads no schema
 * (the `Gate` schema is eval-spec.ts's, `fail_under`'s eval-config.ts's).
 *
 * @example parseGate("0.8")           // { measure: "reward", threshold: 0.8 }
 * @example parseGate("pass@4=0.5")    // { measure: "pass@4", threshold: 0.5 }
 * @example parseGate("exact_match=1") // { measure: "exact_match", threshold: 1 }
 */
import type { RunMetadata } from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";
import type { Gate } from "./eval-spec.ts";

/** `vf eval`'s exit status when every evaluation ran but one scored below a gate. */
export const EXIT_BELOW_GATE = 3;

/** A pass@k measure; its group is k. */
const PASS_AT = /^pass@(\d+)$/;

/** `reward`, `pass@K` or a metric name, `=`, then a number; a bare number gates the reward. */
export function parseGate(text: string): Gate {
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
export function gateFlag(value: string, previous: Gate[] | undefined): Gate[] {
  return [...(previous ?? []), parseGate(value)];
}

/** A gate measured on one run: its value (null when the run does not report it) and whether it passed. */
export interface GateResult {
  gate: Gate;
  value: number | null;
  passed: boolean;
  /** One line: "reward 0.73 < 0.8", or why it could not be measured. */
  line: string;
}

/** The run's value of the gate's measure, or why there is none. */
function measured(gate: Gate, metadata: RunMetadata): { value: number } | { missing: string } {
  if (gate.measure === "reward") return { value: metadata.avg_reward };
  const k = PASS_AT.exec(gate.measure)?.[1];
  if (k !== undefined) {
    const value = metadata.pass_at_k[k];
    if (value !== undefined) return { value };
    const reported = Object.keys(metadata.pass_at_k);
    return {
      missing: `pass@${k} is not reported for ${metadata.rollouts_per_example} rollouts per example: ${
        reported.length > 0
          ? `gate one of ${reported.map((r) => `pass@${r}`).join(", ")}`
          : "pass@k needs -r 2 or more"
      } (k = 1, 2, 4, ... up to -r)`,
    };
  }
  const value = metadata.avg_metrics[gate.measure];
  if (value !== undefined) return { value };
  const names = ["reward", ...Object.keys(metadata.avg_metrics)];
  return {
    missing: `"${gate.measure}" is not a metric of this run: gate one of ${names.join(", ")} or pass@k`,
  };
}

/** Measures every gate on one finished run. */
export function checkGates(gates: readonly Gate[], metadata: RunMetadata): GateResult[] {
  return gates.map((gate) => {
    const found = measured(gate, metadata);
    if ("missing" in found) return { gate, value: null, passed: false, line: found.missing };
    const passed = found.value >= gate.threshold;
    const shown = Number(found.value.toFixed(4));
    return {
      gate,
      value: found.value,
      passed,
      line: `${gate.measure} ${shown} ${passed ? ">=" : "<"} ${gate.threshold}`,
    };
  });
}
