import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUNTIME_TYPES as AGENT_RUNTIMES } from "@vf-rl/agents/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEvalConfig } from "./eval-config.ts";
import { RUNTIME_TYPES } from "./eval-settings.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-envtables-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(lines: string[]) {
  const path = join(dir, "eval.toml");
  await writeFile(path, lines.join("\n"));
  return loadEvalConfig(path);
}

describe("an eval config's env tables (verifiers v1, prime-rl)", () => {
  it("name the taskset with its arguments, the harness and the runtime", async () => {
    const [spec] = await load([
      "[[eval]]",
      "[eval.env.taskset]",
      'id = "coding-tasks"',
      "numEval = 2",
      "[eval.env.agent.harness]",
      'id = "bash"',
      "[eval.env.agent.runtime]",
      'type = "subprocess"',
    ]);
    expect(spec).toMatchObject({
      envId: "coding-tasks",
      envArgs: { numEval: 2 },
      harness: "bash",
      runtime: "subprocess",
    });
  });

  it("take the runtimes --runtime takes (the flag's list stays light for vf's start)", () => {
    expect(RUNTIME_TYPES).toEqual(AGENT_RUNTIMES);
  });

  it("carry the harness's options to the spec, as harness_args (--harness-args) does", async () => {
    const [spec] = await load([
      "[[eval]]",
      "[eval.env.taskset]",
      'id = "bash-arithmetic"',
      "[eval.env.agent.harness]",
      'id = "bash"',
      'tools = ["bash"]',
      'systemPrompt = "Use the bash tool."',
    ]);
    expect(spec).toMatchObject({
      envId: "bash-arithmetic",
      harness: "bash",
      harnessOptions: { tools: ["bash"], systemPrompt: "Use the bash tool." },
    });
    expect(spec).not.toHaveProperty("envArgs");
    const [flat] = await load(["[[eval]]", 'id = "bash-arithmetic"', 'harness_args = { tools = ["bash"] }']);
    expect(flat).toMatchObject({ harnessOptions: { tools: ["bash"] } });
    await expect(
      load([
        "[[eval]]",
        'harness_args = { tools = ["bash"] }',
        "[eval.env.taskset]",
        'id = "bash-arithmetic"',
        "[eval.env.agent.harness]",
        'id = "bash"',
        'tools = ["bash"]',
      ]),
    ).rejects.toThrow("[[eval]] #1: both harness_args and env.agent.harness's options are set: keep one");
  });

  it("carry prime-rl's limits of [env.agent] to the spec", async () => {
    const [spec] = await load([
      "[[eval]]",
      "[eval.env.taskset]",
      'id = "bash-arithmetic"',
      "[eval.env.agent]",
      "max_turns = 2",
      "timeout = 45",
    ]);
    expect(spec).toMatchObject({ agentLimits: { maxTurns: 2, timeSeconds: 45 } });
  });

  it("refuse a key set both ways, and keys vf does not read, each in one line", async () => {
    await expect(
      load(["[[eval]]", 'id = "a"', 'harness = "chat"', "[eval.env.harness]", 'id = "bash"']),
    ).rejects.toThrow("[[eval]] #1: both harness and env.harness.id are set: keep one");
    await expect(
      load(["[[eval]]", "[eval.env.taskset]", 'id = "a"', "[eval.env.judge]", 'id = "x"']),
    ).rejects.toThrow(/^\S+ \[\[eval\]\] #1: env\.judge is not known: use env\.taskset, env\.agent/);
    await expect(
      load(["[[eval]]", "[eval.env.taskset]", 'id = "a"', "[eval.env.agent]", "turns = 3"]),
    ).rejects.toThrow(
      "env.agent.turns is not known: use env.agent.harness, env.agent.runtime, or the limits max_turns, timeout and max_output_tokens",
    );
    await expect(
      load(["[[eval]]", "[eval.env.taskset]", 'id = "a"', "[eval.env.agent.runtime]", 'type = "vm"']),
    ).rejects.toThrow(/env\.agent\.runtime\.type: .*"local"/);
    await expect(
      load(["[[eval]]", "[eval.env.taskset]", 'id = "a"', "[eval.env.agent.harness]", 'tools = ["bash"]']),
    ).rejects.toThrow('env.agent.harness.id is missing: name it, e.g. env.agent.harness.id = "bash"');
    await expect(
      load([
        "[[eval]]",
        "[eval.env.taskset]",
        'id = "a"',
        "[eval.env.harness]",
        'id = "bash"',
        "[eval.env.agent.harness]",
        'id = "chat"',
      ]),
    ).rejects.toThrow("env.harness: is set twice, as env.harness and env.agent.harness: keep one");
  });
});
