import { describe, expect, it } from "vitest";
import { Rng } from "./rng.ts";

describe("the seeded generator", () => {
  it("gives the same numbers for the same seed and stream, different ones otherwise", () => {
    const draw = (seed: number, stream = 0): number[] => {
      const rng = new Rng(seed, stream);
      return Array.from({ length: 5 }, () => rng.nextU32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw(42, 1)).not.toEqual(draw(42, 0));
  });

  it("draws uniform floats in [0, 1) and standard normals", () => {
    const rng = new Rng(1);
    const u = Array.from({ length: 20_000 }, () => rng.nextFloat());
    expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...u)).toBeLessThan(1);
    const z = Array.from({ length: 20_000 }, () => rng.normal());
    const mean = z.reduce((a, b) => a + b) / z.length;
    const variance = z.reduce((a, b) => a + (b - mean) ** 2, 0) / z.length;
    expect(mean).toBeCloseTo(0, 1);
    expect(variance).toBeCloseTo(1, 1);
  });
});
