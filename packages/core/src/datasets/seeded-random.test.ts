import { describe, expect, it } from "vitest";
import { AuthoringError } from "../errors.ts";
import { seededRandom, seededShuffle } from "./seeded-random.ts";

const items = Array.from({ length: 10 }, (_, i) => i);

describe("seededShuffle", () => {
  it("gives the same order for the same seed, on every platform", () => {
    // Pinned: a change here would reorder every saved `--shuffle` run.
    expect(seededShuffle(items, 0)).toEqual([3, 8, 6, 4, 5, 9, 7, 1, 0, 2]);
    expect(seededShuffle(items, 42)).toEqual(seededShuffle(items, 42));
  });

  it("gives different orders for different seeds, including large and negative ones", () => {
    const orders = [0, 1, 42, -1, 2 ** 40, 2 ** 40 + 1].map((seed) => seededShuffle(items, seed).join(","));
    expect(new Set(orders).size).toBe(orders.length);
  });

  it("keeps every item once and leaves the input alone", () => {
    const input = [...items];
    const shuffled = seededShuffle(input, 7);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(input).toEqual(items);
  });

  it("rejects a seed that is not an integer", () => {
    expect(() => seededShuffle(items, 1.5)).toThrow(/seed must be an integer/);
    expect(() => seededShuffle(items, Number.NaN)).toThrow(AuthoringError);
  });
});

describe("seededRandom", () => {
  it("draws the same whole numbers and orders for the same seed, from both ends of a range", () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return [random.int(1, 6), random.int(1, 6), random.shuffle(items), random.next()];
    };
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
    const random = seededRandom(42);
    const seen = new Set(Array.from({ length: 200 }, () => random.int(3, 5)));
    expect([...seen].sort()).toEqual([3, 4, 5]);
  });

  it("shuffles as seededShuffle does when the shuffle is its first draw", () => {
    expect(seededRandom(0).shuffle(items)).toEqual(seededShuffle(items, 0));
    expect(seededRandom(2 ** 40).shuffle(items)).toEqual(seededShuffle(items, 2 ** 40));
  });

  it("rejects a seed that is not an integer", () => {
    expect(() => seededRandom(0.5)).toThrow(AuthoringError);
  });
});
