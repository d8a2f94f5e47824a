import type { RolloutInput } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { PromptSource, PromptSourceState } from "./prompt-source.ts";

const rows = (env: string, n: number): RolloutInput[] =>
  Array.from({ length: n }, (_, i) => ({
    exampleId: i,
    rolloutIndex: 0,
    prompt: [{ role: "user", content: `${env}${i}` }],
    answer: "",
    info: {},
    task: env,
  }));

const draw = (source: PromptSource, n: number): string[] =>
  Array.from({ length: n }, () => {
    const { envIndex, input } = source.next();
    return `${envIndex}:${input.exampleId}`;
  });

describe("the prompt source", () => {
  it("visits every row once per epoch, in a seeded order", () => {
    const source = new PromptSource({ rows_E: [rows("a", 10)], seed: 3 });
    const epoch1 = draw(source, 10);
    const epoch2 = draw(source, 10);
    expect(new Set(epoch1).size).toBe(10);
    expect(new Set(epoch2).size).toBe(10);
    expect(epoch2).not.toEqual(epoch1);
    expect(draw(new PromptSource({ rows_E: [rows("a", 10)], seed: 3 }), 20)).toEqual([...epoch1, ...epoch2]);
  });

  it("mixes environments in proportion to their row counts", () => {
    const source = new PromptSource({ rows_E: [rows("a", 300), rows("b", 100)], seed: 0 });
    const drawn = draw(source, 4000);
    const share = drawn.filter((d) => d.startsWith("1:")).length / drawn.length;
    expect(share).toBeGreaterThan(0.22);
    expect(share).toBeLessThan(0.28);
  });

  it("mixes environments by their weights ([[env]] ratio), whatever their row counts", () => {
    const envs = [rows("a", 100), rows("b", 300)];
    const share = (weights_E?: number[]): number => {
      const drawn = draw(new PromptSource({ rows_E: envs, seed: 0, weights_E }), 4000);
      return drawn.filter((d) => d.startsWith("0:")).length / drawn.length;
    };
    expect(share([3, 1])).toBeGreaterThan(0.72);
    expect(share([3, 1])).toBeLessThan(0.78);
    expect(share([0.75, 0.25])).toBe(share([3, 1])); // only the proportion counts
    expect(share()).toBeLessThan(0.28); // no weights: row counts, 1 to 3
  });

  it("continues exactly from a saved state, as a resumed run must", () => {
    const envs = [rows("a", 7), rows("b", 5)];
    const unbroken = new PromptSource({ rows_E: envs, seed: 11 });
    draw(unbroken, 23);
    const state = JSON.parse(JSON.stringify(unbroken.state())); // as written in progress.json
    const resumed = new PromptSource({ rows_E: envs, seed: 11, state });
    expect(draw(resumed, 30)).toEqual(draw(unbroken, 30));
  });

  it("resumes a checkpoint written before curricula, which kept each environment's epoch and position", () => {
    const envs = [rows("a", 7), rows("b", 5)];
    const unbroken = new PromptSource({ rows_E: envs, seed: 11 });
    draw(unbroken, 23);
    const { rng, rows: samplers } = unbroken.state();
    const cursors = samplers.map((s) =>
      s.type === "standard" ? { epoch: s.epoch, position: s.position } : {},
    );
    const resumed = new PromptSource({
      rows_E: envs,
      seed: 11,
      state: PromptSourceState.parse({ rng, cursors }),
    });
    expect(draw(resumed, 30)).toEqual(draw(unbroken, 30));
  });
});
