import { describe, expect, it } from "vitest";
import { AdmissionGates, advantageRangeAdmits } from "./admission-gates.ts";

const range = (reject_min: number, reject_max: number) => ({
  type: "advantage_range" as const,
  reject_min,
  reject_max,
});

describe("admission gates", () => {
  it("reject a group only when every advantage lies in the range", () => {
    expect(advantageRangeAdmits(range(-0.1, 0.1), [0.05, -0.05])).toBe(false);
    expect(advantageRangeAdmits(range(-0.1, 0.1), [0.15, -0.05, -0.1])).toBe(true);
    // the default [0, 0]: a group whose rewards are all equal, whatever the rounding
    const flat = [0.1, 0.1, 0.1].map((r) => r - (0.1 + 0.1 + 0.1) / 3);
    expect(flat.some((a) => a !== 0)).toBe(true);
    expect(advantageRangeAdmits(range(0, 0), flat)).toBe(false);
    expect(advantageRangeAdmits(range(0, 0), [])).toBe(true);
  });

  it("each judge every group of their environment, and count what they reject", () => {
    const gates = new AdmissionGates([{ narrow: range(-0.1, 0.1), wide: range(-1, 1) }, undefined]);
    expect(gates.admit(0, [0.5, -0.5])).toBe(false); // wide rejects, narrow admits
    expect(gates.admit(0, [0.05, -0.05])).toBe(false); // both reject
    expect(gates.admit(0, [2, -2])).toBe(true);
    expect(gates.admit(1, [0, 0])).toBe(true); // no gates
    expect(gates.rejected()).toEqual([{ narrow: 1, wide: 2 }, {}]);
  });
});
