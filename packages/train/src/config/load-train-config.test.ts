import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LoadAgentEnvOptions, loadAgentEnv } from "@vf-rl/agents";
import { ConfigError } from "@vf-rl/core";
import { parseOverrides } from "@vf-rl/core/config";
import { findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VOWELS_ENV } from "../testing/index.ts";
import { type EnvSource, envSource } from "./env-source.ts";
import { loadTrainConfig, resolveTrainConfig } from "./load-train-config.ts";

/** The loadAgentEnv options of an [[env]] block's harness and runtime. */
function agentOptions(agent: EnvSource["agent"]): Partial<LoadAgentEnvOptions> {
  return {
    ...(agent?.harness !== undefined ? { harness: agent.harness } : {}),
    ...(agent ? { harnessOptions: agent.harnessOptions } : {}),
    ...(agent?.runtime !== undefined ? { runtime: agent.runtime } : {}),
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-train-config-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const fresh = { d_model: 32, n_layers: 1, n_heads: 4 };

async function write(name: string, toml: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, toml);
  return path;
}

function problems(raw: Record<string, unknown>, args: string[] = []): string {
  try {
    resolveTrainConfig({ raw, where: "run.toml" }, parseOverrides(args));
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("training configs", () => {
  it("read from TOML fill every default and name the run folder after the environment", async () => {
    const path = await write(
      "ok.toml",
      `max_steps = 3\n[model]\nd_model = 32\nn_layers = 1\nn_heads = 4\n[[env]]\nid = "${VOWELS_ENV}"\n[env.args]\nrows = 4\n`,
    );
    const config = await loadTrainConfig(path);
    expect(config).toMatchObject({
      max_steps: 3,
      batch_size: 64,
      rollouts_per_example: 8,
      max_async_level: 1,
      sampling: { temperature: 1, max_tokens: 128, top_p: 1 },
      env: [{ id: VOWELS_ENV, args: { rows: 4 } }],
      loss: { type: "masked_importance_sampling", mask_low: 0.125, mask_high: 8 },
      output_dir: expect.stringMatching(/^outputs\/train\/.*vowels$/),
    });
  });

  it("take --key.path overrides, typed as TOML values, into the only [[env]] table too", () => {
    const config = resolveTrainConfig(
      { raw: { model: fresh, env: [{ id: VOWELS_ENV }] }, where: "run.toml" },
      parseOverrides([
        "--max_steps",
        "5",
        "--sampling.temperature=0.7",
        "--env.args.rows",
        "3",
        "--advantage.normalize-std",
        "--output_dir",
        "out/run",
      ]),
    );
    expect(config.max_steps).toBe(5);
    expect(config.sampling.temperature).toBe(0.7);
    expect(config.env[0]!.args).toEqual({ rows: 3 });
    expect(config.advantage.normalize_std).toBe(true);
    expect(config.output_dir).toBe("out/run");
  });

  it("reject unknown keys with the nearest key of the same table, or the table where the key lives", () => {
    const message = problems({
      model: fresh,
      env: [{ id: VOWELS_ENV }],
      max_stepz: 3,
      sampling: { temprature: 1 },
      temperature: 1,
    });
    expect(message).toContain('unknown key "max_stepz": did you mean "max_steps"?');
    expect(message).toContain('unknown key "sampling.temprature": did you mean "sampling.temperature"?');
    expect(message).toContain(
      'unknown key "temperature": did you mean "sampling.temperature" (in [sampling])?',
    );
  });

  it("name the flag when the bad key came from the command line", () => {
    const message = problems({ model: fresh, env: [{ id: VOWELS_ENV }] }, [
      "--batch_size",
      "many",
      "--lerning_rate",
      "1",
    ]);
    expect(message).toContain('--batch_size: batch_size ("many"): Invalid input: expected number');
    // an address vf cannot speak to (ftp://) is refused here, not at the run's first request
    for (const [flag, key] of [
      ["--trainer.url", "trainer.url"],
      ["--inference.url", "inference.url"],
    ]) {
      expect(problems({ model: fresh, env: [{ id: VOWELS_ENV }] }, [flag!, "ftp://10.0.0.2:8200"])).toBe(
        `${flag}: ${key} ("ftp://10.0.0.2:8200"): must be an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1`,
      );
    }
    expect(message).toContain(
      '--lerning_rate: unknown key "lerning_rate": did you mean "optimizer.learning_rate" (in [optimizer])?',
    );
  });

  it("answer an old config's [checkpoints] keep with its new name, keep_last, in one line", () => {
    const message = problems({ model: fresh, env: [{ id: VOWELS_ENV }], checkpoints: { keep: 3 } });
    expect(message).toBe("run.toml: checkpoints.keep is now checkpoints.keep_last: rename it");
  });

  it("check the rules between keys, each message naming keys, values and a fix", () => {
    const message = problems({
      model: fresh,
      env: [{ id: VOWELS_ENV }],
      batch_size: 10,
      rollouts_per_example: 3,
      micro_batch_size: 4,
      max_concurrent: 2,
      easy_threshold: 0.2,
      hard_threshold: 0.5,
    });
    expect(message).toMatch(/^4 problems:/);
    expect(message).toContain(
      "batch_size (10) must be divisible by rollouts_per_example (3): set batch_size to 9 or 12",
    );
    expect(message).toContain(
      "batch_size (10) must be divisible by micro_batch_size (4): set micro_batch_size to one of 1, 2, 5, 10",
    );
    expect(message).toContain("max_concurrent (2) must be at least rollouts_per_example (3)");
    expect(message).toContain("hard_threshold (0.5) must be below easy_threshold (0.2)");
    expect(
      problems({ model: fresh, env: [{ id: VOWELS_ENV }], rollouts_per_example: 1, batch_size: 8 }),
    ).toContain("rollouts_per_example (1) must be at least 2");
    expect(
      problems({ model: fresh, env: [{ id: VOWELS_ENV }], max_async_level: 2, max_off_policy_steps: 1 }),
    ).toContain(
      "max_off_policy_steps (1) must be at least max_async_level (2): every batch is sampled max_async_level steps before it is trained, so every rollout would be dropped as too stale; set max_off_policy_steps to 2 or more, or lower max_async_level",
    );
  });

  it("reject a missing model folder, an unknown environment and a bad fresh architecture", () => {
    const message = problems({
      model: join(dir, "no-such-model"),
      env: [{ id: "no-such-env" }],
    });
    expect(message).toContain("is not a folder: give a checkpoint folder");
    expect(problems({ model: "@vf-env/nothing/warm-start", env: [{ id: VOWELS_ENV }] })).toContain(
      "(@vf-env/nothing is not installed here: npm install -D @vf-env/nothing)",
    );
    expect(message).toContain('unknown environment "no-such-env"');
    expect(problems({ model: fresh, env: [{ id: "someone/thing@1.0.0" }] })).toMatch(
      /env\[0\]\.id: unknown environment "someone\/thing@1.0.0": .*install it from its Hub, e.g. vf env install someone\/thing@1.0.0/,
    );
    expect(
      problems({ model: { d_model: 30, n_layers: 1, n_heads: 4 }, env: [{ id: VOWELS_ENV }] }),
    ).toContain("model.d_model (30) must be divisible by model.n_heads (4)");
  });

  it("find a model folder an installed package ships, as a config copied by vf setup names it", () => {
    // bash-arithmetic's warm start, wherever the package is installed (here: the workspace's link)
    const config = resolveTrainConfig({
      raw: { model: "@vf-env/bash-arithmetic/warm-start", env: [{ id: VOWELS_ENV }] },
      where: "run.toml",
    });
    expect(config.model).toMatch(/node_modules[\\/]@vf-env[\\/]bash-arithmetic[\\/]warm-start$/);
    expect(existsSync(join(config.model as string, "model.safetensors"))).toBe(true);
  });

  it("say where a file is not TOML, and refuse stray arguments", async () => {
    const path = await write("bad.toml", "max_steps = = 3\n");
    await expect(loadTrainConfig(path)).rejects.toThrow(/bad\.toml is not valid TOML .*fix the syntax/);
    expect(() => parseOverrides(["extra"])).toThrow(
      /unexpected argument "extra": overrides are written --key.path value/,
    );
    expect(() => parseOverrides(["--env.1.id", "x"])).not.toThrow();
  });

  it("shipped in configs/train resolve, and their environments accept their args", async () => {
    const shipped = join(import.meta.dirname, "..", "..", "..", "..", "configs", "train");
    const names = (await readdir(shipped)).filter((name) => name.endsWith(".toml"));
    expect(names).toEqual(
      expect.arrayContaining(["alphabet-sort.toml", "reverse-text.toml", "wiki-search.toml"]),
    );
    for (const name of names) {
      const config = await loadTrainConfig(join(shipped, name));
      for (const env of config.env) {
        const { id, args, agent } = envSource(env);
        const loaded = await (agent || findEnvironment(id).packageJson.vf.kind === "taskset"
          ? loadAgentEnv({ envId: id, envArgs: args, ...agentOptions(agent) })
          : loadEnvironmentById(id, { args }));
        await loaded.env.teardown();
      }
    }
  });
});
