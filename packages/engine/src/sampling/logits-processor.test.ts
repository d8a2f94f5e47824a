import { describe, expect, it } from "vitest";
import { Rng } from "../rng.ts";
import { SamplingParams, type SamplingParamsInput } from "../trainer/protocol.ts";
import { LogitsProcessor } from "./logits-processor.ts";

// probabilities 0.5, 0.3, 0.15, 0.05 at temperature 1
const logits = Float32Array.from([0.5, 0.3, 0.15, 0.05].map(Math.log));
const none = new Uint8Array(4);

function draw(params: SamplingParamsInput, n = 4000): { counts: number[]; logprobs: Map<number, number> } {
  const processor = new LogitsProcessor(4);
  const rng = new Rng(1);
  const parsed = SamplingParams.parse(params);
  const counts = [0, 0, 0, 0];
  const logprobs = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const { token, logprob } = processor.pick(logits, 0, parsed, none, rng);
    counts[token]! += 1;
    logprobs.set(token, logprob);
  }
  return { counts, logprobs };
}

describe("the logits processor", () => {
  it("draws tokens in proportion to their probability at temperature 1", () => {
    const { counts, logprobs } = draw({});
    expect(counts[0]! / 4000).toBeCloseTo(0.5, 1);
    expect(counts[3]! / 4000).toBeCloseTo(0.05, 1);
    expect(logprobs.get(1)).toBeCloseTo(Math.log(0.3), 6);
  });

  it("picks the most likely token at temperature 0", () => {
    const { counts, logprobs } = draw({ temperature: 0 }, 10);
    expect(counts).toEqual([10, 0, 0, 0]);
    expect(logprobs.get(0)).toBeCloseTo(Math.log(0.5), 6);
  });

  it("keeps the k most likely with top_k, and returns logprobs of the renormalised distribution", () => {
    const { counts, logprobs } = draw({ topK: 2 });
    expect(counts[2]! + counts[3]!).toBe(0);
    expect(logprobs.get(0)).toBeCloseTo(Math.log(0.5 / 0.8), 6);
  });

  it("keeps the smallest set reaching top_p", () => {
    expect(draw({ topP: 0.8 }).counts.slice(2)).toEqual([0, 0]); // 0.5 + 0.3 reaches 0.8
    expect(draw({ topP: 0.5 }).counts.slice(1)).toEqual([0, 0, 0]);
  });

  it("drops tokens below min_p times the most likely", () => {
    const { counts, logprobs } = draw({ minP: 0.35 }); // threshold 0.175: keeps 0.5 and 0.3
    expect(counts.slice(2)).toEqual([0, 0]);
    expect(logprobs.get(1)).toBeCloseTo(Math.log(0.3 / 0.8), 6);
  });

  it("returns the raw softmax logprob in raw mode, whatever the truncation", () => {
    const { logprobs } = draw({ topK: 1, logprobsMode: "raw" }, 10);
    expect(logprobs.get(0)).toBeCloseTo(Math.log(0.5), 6);
  });

  it("penalises tokens already seen", () => {
    const processor = new LogitsProcessor(2);
    const params = SamplingParams.parse({ temperature: 0, repetitionPenalty: 2 });
    const row = Float32Array.of(1, 0.8);
    expect(processor.pick(row, 0, params, Uint8Array.of(0, 0), new Rng(0)).token).toBe(0);
    expect(processor.pick(row, 0, params, Uint8Array.of(1, 0), new Rng(0)).token).toBe(1); // 1/2 < 0.8
  });

  it("lists the most likely tokens beside the pick, from the distribution the pick was drawn from", () => {
    const processor = new LogitsProcessor(4);
    const pick = (p: SamplingParamsInput, k: number) =>
      processor.pick(logits, 0, SamplingParams.parse(p), none, new Rng(0), k).top;
    const round = (top: { token: number; logprob: number }[]) =>
      top.map((t) => [t.token, Number(Math.exp(t.logprob).toFixed(4))]);
    expect(round(pick({}, 3))).toEqual([
      [0, 0.5],
      [1, 0.3],
      [2, 0.15],
    ]);
    expect(round(pick({ topK: 2 }, 3))).toEqual([
      [0, 0.625],
      [1, 0.375],
    ]); // truncated tokens are not alternatives
    expect(round(pick({ topK: 2, logprobsMode: "raw" }, 3))).toEqual([
      [0, 0.5],
      [1, 0.3],
      [2, 0.15],
    ]);
    expect(pick({}, 0)).toEqual([]);
  });
});
