import { describe, expect, it } from "vitest";
import { isRepetitive } from "./repetition-filter.ts";

const rule = { window: 4, probThreshold: 0.99 };
const certain = Math.log(0.995);
const unsure = Math.log(0.5);

describe("the repetition detector", () => {
  it("flags `window` near-certain tokens in a row", () => {
    expect(isRepetitive([unsure, certain, certain, certain, certain], rule)).toBe(true);
    expect(isRepetitive([certain, certain, certain, certain, unsure], rule)).toBe(true);
  });

  it("starts counting again at every open choice", () => {
    const stream = [certain, certain, certain, unsure, certain, certain, certain, unsure, certain];
    expect(isRepetitive(stream, rule)).toBe(false);
  });

  it("needs each token strictly above the probability threshold", () => {
    expect(isRepetitive(Array(10).fill(Math.log(0.99)), rule)).toBe(false);
    expect(isRepetitive(Array(10).fill(Math.log(0.9901)), rule)).toBe(true);
  });

  it("passes a rollout shorter than the window", () => {
    expect(isRepetitive([certain, certain, certain], rule)).toBe(false);
    expect(isRepetitive([], rule)).toBe(false);
  });
});
