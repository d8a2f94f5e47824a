import { ConfigError } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { VOWELS_ENV } from "../testing/index.ts";
import { resolveTrainConfig } from "./load-train-config.ts";

const fresh = { d_model: 32, n_layers: 1, n_heads: 4 };

/** A config whose one [[env]] has this curriculum table. */
const withCurriculum = (curriculum: unknown) => ({
  raw: { model: fresh, output_dir: "/tmp/never", env: [{ id: VOWELS_ENV, curriculum }] },
  where: "run.toml",
});

function problems(curriculum: unknown): string {
  try {
    resolveTrainConfig(withCurriculum(curriculum));
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("[env.curriculum]", () => {
  it("is absent by default, and fills prime-rl's pools and a gate's range when left out", () => {
    const plain = resolveTrainConfig({ raw: withCurriculum(undefined).raw, where: "run.toml" });
    expect(plain.env[0]!.curriculum).toBeUndefined();
    const config = resolveTrainConfig(
      withCurriculum({ sampler: { type: "difficulty_pool" }, gates: { flat: { type: "advantage_range" } } }),
    );
    expect(config.env[0]!.curriculum).toEqual({
      sampler: {
        type: "difficulty_pool",
        pools: {
          hard: { threshold: 0.25, weight: 0.2 },
          normal: { threshold: 0.75, weight: 1 },
          easy: { threshold: 1, weight: 0.2 },
        },
      },
      gates: { flat: { type: "advantage_range", reject_min: 0, reject_max: 0 } },
    });
    expect(resolveTrainConfig(withCurriculum({})).env[0]!.curriculum).toEqual({
      sampler: { type: "standard" },
      gates: {},
    });
  });

  it("refuses pools that share a threshold or all weigh 0, and a range upside down, saying what to do", () => {
    const pool = (threshold: number, weight: number) => ({ threshold, weight });
    expect(
      problems({ sampler: { type: "difficulty_pool", pools: { a: pool(0.5, 1), b: pool(0.5, 0) } } }),
    ).toMatch(/env\.0\.curriculum\.sampler\.pools \(.*\): share a threshold: each pool needs its own/);
    expect(
      problems({ sampler: { type: "difficulty_pool", pools: { a: pool(0.5, 0), b: pool(1, 0) } } }),
    ).toMatch(/all weigh 0, so every scored row would retire: give at least one pool a weight above 0/);
    expect(
      problems({ gates: { g: { type: "advantage_range", reject_min: 0.2, reject_max: -0.2 } } }),
    ).toMatch(/env\.0\.curriculum\.gates\.g\.reject_min \(0\.2\): is above reject_max: .*swap them/);
    expect(problems({ sampler: { type: "difficulty_pool", pools: { a: { weight: 1 } } } })).toMatch(
      /env\.0\.curriculum\.sampler\.pools\.a\.threshold \(missing\)/,
    );
    expect(problems({ sampler: { type: "pool" } })).toMatch(/env\.0\.curriculum\.sampler\.type \("pool"\)/);
    expect(problems({ sampler: { type: "standard", pools: {} } })).toMatch(
      /unknown key "env\.0\.curriculum\.sampler\.pools": it belongs to another type of \[env\.0\.curriculum\.sampler\]; check its type/,
    );
  });
});
