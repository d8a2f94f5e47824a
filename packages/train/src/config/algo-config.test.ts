import { ConfigError } from "@vf-rl/core";
import { BASE_MODEL_DIR } from "@vf-rl/engine";
import { describe, expect, it } from "vitest";
import { tinyRunConfig } from "../testing/index.ts";
import { algoNotes } from "./algo-config.ts";
import { resolveTrainConfig } from "./load-train-config.ts";

const resolve = (algo?: unknown, sampling?: unknown) =>
  resolveTrainConfig({
    raw: {
      ...tinyRunConfig("/tmp/vf-algo"),
      ...(algo !== undefined ? { algo } : {}),
      ...(sampling !== undefined ? { sampling } : {}),
    },
    where: "run.toml",
  });

const problem = (algo: unknown): string => {
  try {
    resolve(algo);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
};

describe("the [algo] table", () => {
  it('is GRPO by default, and "opd" takes a teacher with kl_coef 1 and reward_weight 0 by default', () => {
    expect(resolve().algo).toEqual({ type: "grpo" });
    expect(resolve({ type: "opd", teacher: { model: BASE_MODEL_DIR } }).algo).toEqual({
      type: "opd",
      teacher: { model: BASE_MODEL_DIR },
      kl_coef: 1,
      reward_weight: 0,
    });
    const remote = { url: "http://10.0.0.5:8000/v1", model: "Qwen/Qwen3-8B", api_key_var: "TEACHER_KEY" };
    expect(resolve({ type: "opd", teacher: remote, reward_weight: 0.5 }).algo).toMatchObject({
      teacher: remote,
      reward_weight: 0.5,
    });
  });

  it("says what a teacher is missing, and which keys a table has", () => {
    expect(problem({ type: "opd" })).toMatch(/^run\.toml: algo\.teacher \(missing\)/);
    expect(problem({ type: "opd", teacher: {} })).toMatch(
      /algo\.teacher\.model \(missing\): is missing: give the teacher's checkpoint folder as model = "\.\.\.", or a server as url/,
    );
    expect(problem({ type: "opd", teacher: { model: BASE_MODEL_DIR, api_key_var: "K" } })).toMatch(
      /algo\.teacher\.api_key_var \("K"\): is the key of a teacher server: set url too/,
    );
    expect(problem({ type: "opd", teacher: { model: "no/such/teacher" } })).toBe(
      "run.toml: algo.teacher.model (\"no/such/teacher\") is not a folder: give the teacher's checkpoint folder (config.json and model.safetensors), relative to the working folder or inside an installed package, or its server's url",
    );
    expect(problem({ type: "opd", teacher: { model: BASE_MODEL_DIR }, kl_coeff: 1 })).toMatch(
      /unknown key "algo\.kl_coeff": did you mean "algo\.kl_coef"\?/,
    );
    expect(problem({ type: "ppo" })).toMatch(/^run\.toml: algo\.type \("ppo"\)/);
  });

  it("notes that distillation trains every group, and warns when the student samples away from temperature 1", () => {
    const opd = resolve({ type: "opd", teacher: { model: BASE_MODEL_DIR } }, { temperature: 0.7 });
    const notes = algoNotes(opd.algo, opd.sampling);
    expect(notes[0]).toMatch(/every group is trained on, whatever its rewards/);
    expect(notes[1]).toMatch(/sampling\.temperature is 0\.7, but the teacher scores at temperature 1/);
    expect(algoNotes(resolve().algo, resolve().sampling)).toEqual([]);
  });
});
