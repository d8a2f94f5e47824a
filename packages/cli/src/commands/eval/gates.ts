/**
 * Score gates for CI (`--fail-under`, `fail_under` in a config): a threshold on a run's average
 * reward, one metric's average, or pass@k (gate-flag.ts reads them). A finished run that scores
 * below a gate makes `vf eval` exit with EXIT_BELOW_GATE, apart from a run that could not run (1)
 * and bad usage (2).
 */
import type { RunMetadata } from "@vf-rl/core/results";
import { z } from "zod";
import { PASS_AT, parseGate } from "./gate-flag.ts";

/** `vf eval`'s exit status when every evaluation ran but one scored below a gate. */
export const EXIT_BELOW_GATE = 3;

/** One gate: what is measured ("reward", "pass@K" or a metric's name) and the least it may be. */
export const Gate = z.object({ measure: z.string().min(1), threshold: z.number() }).strict();
export type Gate = z.infer<typeof Gate>;

/** A gate measured on one run: its value (null when the run does not report it) and whether it passed. */
export interface GateResult {
  gate: Gate;
  value: number | null;
  passed: boolean;
  /** One line: "reward 0.73 < 0.8", or why it could not be measured. */
  line: string;
}

/** `fail_under` in a config: one gate or a list, each a number (the reward) or a gate's text; or a table of measures. */
export const GatesConfig = z
  .union([
    z.number(),
    z.string(),
    // Gate objects: what the flag's parser gives, when --fail-under overrides a config's key.
    z.array(z.union([z.number(), z.string(), Gate])),
    z.record(z.string(), z.number()),
  ])
  .transform((value, ctx): Gate[] => {
    const items = Array.isArray(value)
      ? value
      : typeof value === "object"
        ? Object.entries(value).map(([measure, threshold]) => `${measure}=${threshold}`)
        : [value];
    try {
      return items.map((item) => (typeof item === "object" ? item : parseGate(String(item))));
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^--fail-under /, "") });
      return z.NEVER;
    }
  });

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
