import { describe, expect, it } from "vitest";
import { seededRandom } from "./seeded-random.ts";

describe("seededRandom", () => {
  it("gives the same choices for the same seed and row, and other choices for other rows", () => {
    const draw = (seed: number, row: number) => {
      const random = seededRandom(seed, row);
      return [random.int(1, 100), random.int(1, 100), random.shuffle([1, 2, 3, 4, 5, 6])];
    };
    expect(draw(0, 5)).toEqual(draw(0, 5));
    expect(draw(0, 5)).not.toEqual(draw(0, 6));
    expect(draw(0, 5)).not.toEqual(draw(1, 5));
  });

  it("draws whole numbers from both ends of the range, and shuffles without losing items", () => {
    const random = seededRandom(42, 0);
    const seen = new Set(Array.from({ length: 200 }, () => random.int(3, 5)));
    expect([...seen].sort()).toEqual([3, 4, 5]);
    const shuffled = random.shuffle(["a", "b", "c", "d", "e"]);
    expect([...shuffled].sort()).toEqual(["a", "b", "c", "d", "e"]);
  });
});
