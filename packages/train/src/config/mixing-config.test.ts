// How a config mixes environments ([[env]] ratio) and names environments to evaluate ([[eval.env]]),
// and the one line it gets when either is wrong.
import { ConfigError } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { CONSONANTS_ENV, VOWELS_ENV } from "../testing/index.ts";
import { resolveTrainConfig } from "./load-train-config.ts";

const fresh = { d_model: 32, n_layers: 1, n_heads: 4 };

function resolve(raw: Record<string, unknown>) {
  return resolveTrainConfig({ raw: { model: fresh, ...raw }, where: "run.toml" });
}

function problem(raw: Record<string, unknown>): string {
  try {
    resolve(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("mixing environments by ratio", () => {
  it("reads a ratio on every [[env]], and none as before", () => {
    const mixed = resolve({
      env: [
        { id: VOWELS_ENV, ratio: 3 },
        { id: CONSONANTS_ENV, ratio: 1 },
      ],
    });
    expect(mixed.env.map((e) => e.ratio)).toEqual([3, 1]);
    const plain = resolve({ env: [{ id: VOWELS_ENV }, { id: CONSONANTS_ENV }] });
    expect(plain.env.map((e) => e.ratio)).toEqual([undefined, undefined]);
  });

  it("refuses a ratio on some [[env]] tables only, and one not above 0", () => {
    expect(problem({ env: [{ id: VOWELS_ENV, ratio: 3 }, { id: CONSONANTS_ENV }] })).toBe(
      `run.toml: ratio is set on some [[env]] tables but not on "${CONSONANTS_ENV}": set it on every [[env]] (ratio = 1 on each mixes them equally), or on none to mix in proportion to row counts`,
    );
    expect(problem({ env: [{ id: VOWELS_ENV, ratio: 0 }] })).toMatch(/^run\.toml: env\.0\.ratio \(0\): /);
  });
});

describe("eval sources ([[eval.env]])", () => {
  it("name environments as [[env]] does, each with its own rows and rollouts", () => {
    const config = resolve({
      env: [{ id: VOWELS_ENV }],
      eval: {
        num_examples: 4,
        env: [{ id: CONSONANTS_ENV, args: { rows: 2 }, rollouts_per_example: 3 }, { id: VOWELS_ENV }],
      },
    });
    expect(config.eval?.env).toEqual([
      { id: CONSONANTS_ENV, args: { rows: 2 }, rollouts_per_example: 3 },
      { id: VOWELS_ENV, args: {} },
    ]);
  });

  it("refuses an unknown environment, a repeated one and a training-only key, one line each", () => {
    expect(problem({ env: [{ id: VOWELS_ENV }], eval: { env: [{ id: "no-such-env-here" }] } })).toMatch(
      /^run\.toml: eval\.env\[0\]\.id: /,
    );
    expect(
      problem({ env: [{ id: VOWELS_ENV }], eval: { env: [{ id: CONSONANTS_ENV }, { id: CONSONANTS_ENV }] } }),
    ).toMatch(/\[\[eval\.env\]\] lists ".*consonants" more than once/);
    expect(problem({ env: [{ id: VOWELS_ENV }], eval: { env: [{ id: CONSONANTS_ENV, ratio: 1 }] } })).toMatch(
      /^run\.toml: unknown key "eval\.env\.0\.ratio": did you mean "env\.ratio" \(in \[env\]\)\?$/,
    );
    expect(problem({ env: [{ id: VOWELS_ENV }], eval: { env: [{ args: { rows: 2 } }] } })).toMatch(
      /eval\.env\.0\.id.*is missing: .*or a taskset with \[eval\.env\.taskset\] id/,
    );
  });
});
