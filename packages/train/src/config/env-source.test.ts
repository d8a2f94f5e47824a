// An [[env]] block names agents as prime-rl does ([env.taskset], [env.agent.harness],
// [env.agent.runtime]), the same tables vf eval's config takes; a wrong key is one line.
import { ConfigError } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { envSource } from "./env-source.ts";
import { resolveTrainConfig } from "./load-train-config.ts";

const fresh = { d_model: 32, n_layers: 1, n_heads: 4 };

function resolve(env: Record<string, unknown>) {
  return resolveTrainConfig({ raw: { model: fresh, env: [env] }, where: "run.toml" });
}

function problem(env: Record<string, unknown>): string {
  try {
    resolve(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("an [[env]] block naming agents", () => {
  it("reads the taskset, its arguments, the harness with its options and the runtime", () => {
    const config = resolve({
      taskset: { id: "bash-arithmetic", numEval: 50 },
      agent: { harness: { id: "bash", tools: ["bash"] }, runtime: { type: "subprocess" } },
    });
    expect(envSource(config.env[0]!)).toEqual({
      id: "bash-arithmetic",
      args: { numEval: 50 },
      agent: { harness: "bash", harnessOptions: { tools: ["bash"] }, runtime: "subprocess", limits: {} },
    });
    expect(config.output_dir).toBe("outputs/train/bash-arithmetic");
  });

  it("reads prime-rl's limits of [env.agent] over each task's own", () => {
    const config = resolve({
      taskset: { id: "bash-arithmetic" },
      agent: { harness: { id: "bash" }, max_turns: 3, timeout: 30, max_output_tokens: 512 },
    });
    expect(envSource(config.env[0]!).agent?.limits).toEqual({
      maxTurns: 3,
      timeSeconds: 30,
      maxCompletionTokens: 512,
    });
  });

  it("reads [env.harness] and [env.runtime] as [env.agent]'s tables, and a plain environment as before", () => {
    const config = resolve({ id: "reverse-text", harness: { id: "chat" }, runtime: { type: "local" } });
    expect(envSource(config.env[0]!)).toEqual({
      id: "reverse-text",
      args: {},
      agent: { harness: "chat", harnessOptions: {}, runtime: "local", limits: {} },
    });
    const plain = resolve({ id: "reverse-text", args: { x: 1 } });
    expect(envSource(plain.env[0]!)).toEqual({ id: "reverse-text", args: { x: 1 } });
  });

  it("refuses a wrong key, a wrong runtime, a missing id and a name given twice, one line each", () => {
    expect(problem({ taskset: { id: "bash-arithmetic" }, agent: { max_turn: 3 } })).toMatch(
      /^run\.toml: unknown key "env\.0\.agent\.max_turn": did you mean "env\.0\.agent\.max_turns"/,
    );
    expect(problem({ taskset: { id: "bash-arithmetic" }, agent: { max_turns: 0 } })).toMatch(
      /^run\.toml: env\.0\.agent\.max_turns/,
    );
    expect(problem({ taskset: { id: "bash-arithmetic" }, agent: { runtime: { type: "vm" } } })).toMatch(
      /^run\.toml: env\.0\.agent\.runtime\.type.*local.*container.*subprocess/,
    );
    expect(problem({ agent: { harness: { id: "bash" } } })).toMatch(
      /env\.0\.id.*is missing: name the environment with id = "<environment>", or a taskset with \[env\.taskset\] id/,
    );
    expect(problem({ id: "reverse-text", taskset: { id: "bash-arithmetic" } })).toMatch(
      /env\.0\.taskset.*keep id or \[env\.taskset\], not both/,
    );
    expect(
      problem({
        taskset: { id: "bash-arithmetic" },
        harness: { id: "bash" },
        agent: { harness: { id: "bash" } },
      }),
    ).toMatch(/env\.0\.harness.*is set twice/);
    expect(problem({ taskset: { id: "no-such-taskset" } })).toMatch(/^run\.toml: env\[0\]\.taskset\.id: /);
  });
});
