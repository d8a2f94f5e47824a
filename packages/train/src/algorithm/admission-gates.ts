/**
 * Admission gates (`[env.curriculum.gates.NAME]`): each judges a finished group by its advantages,
 * after the difficulty filter has kept it. Every gate of the group's environment judges it (none
 * stops the others, so each one's count is its own), and the group trains only if all admit it; a
 * rejected group is replaced by a new draw, as the difficulty filter's drops are (collect-batch.ts).
 */
import type { AdvantageRangeGateConfig, GateConfig } from "../config/curriculum-config.ts";

/** Advantages this close to the range count as in it: a group whose rewards are all equal has advantages of ±1e-17, not 0. */
const EDGE_EPS = 1e-9;

/** Whether an advantage_range gate admits a group: not when every advantage lies in its range. */
export function advantageRangeAdmits(
  gate: AdvantageRangeGateConfig,
  advantages_G: readonly number[],
): boolean {
  if (advantages_G.length === 0) return true;
  const inRange = (a: number) => a >= gate.reject_min - EDGE_EPS && a <= gate.reject_max + EDGE_EPS;
  return !advantages_G.every(inRange);
}

/** Whether `gate` admits a group with these advantages. */
export function gateAdmits(gate: GateConfig, advantages_G: readonly number[]): boolean {
  switch (gate.type) {
    case "advantage_range":
      return advantageRangeAdmits(gate, advantages_G);
  }
}

/** The gates of each environment, and how many groups each has rejected since it was made. */
export class AdmissionGates {
  private readonly rejected_E: Record<string, number>[];

  /** `gates_E`: each environment's gates by name (none for an environment without a curriculum). */
  constructor(private readonly gates_E: readonly (Readonly<Record<string, GateConfig>> | undefined)[]) {
    this.rejected_E = gates_E.map((gates) =>
      Object.fromEntries(Object.keys(gates ?? {}).map((name) => [name, 0])),
    );
  }

  /** Whether every gate of environment `envIndex` admits the group; each gate that rejects it counts it. */
  admit(envIndex: number, advantages_G: readonly number[]): boolean {
    let admitted = true;
    for (const [name, gate] of Object.entries(this.gates_E[envIndex] ?? {})) {
      if (gateAdmits(gate, advantages_G)) continue;
      admitted = false;
      this.rejected_E[envIndex]![name]! += 1;
    }
    return admitted;
  }

  /** Groups rejected by each gate, by environment and gate name. */
  rejected(): Record<string, number>[] {
    return this.rejected_E.map((counts) => ({ ...counts }));
  }
}
