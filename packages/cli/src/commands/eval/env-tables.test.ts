import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEvalConfig } from "./eval-config.ts";

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

  it("refuse a key set both ways, and keys vf does not read, by name", async () => {
    await expect(
      load(["[[eval]]", 'id = "a"', 'harness = "chat"', "[eval.env.harness]", 'id = "bash"']),
    ).rejects.toThrow("[[eval]] #1: both harness and env.harness.id are set: keep one");
    await expect(
      load(["[[eval]]", "[eval.env.taskset]", 'id = "a"', "[eval.env.judge]", 'id = "x"']),
    ).rejects.toThrow("env.judge is not known: use env.taskset, env.harness, env.runtime or env.agent");
    await expect(
      load(["[[eval]]", "[eval.env.taskset]", 'id = "a"', "[eval.env.runtime]", 'type = "vm"']),
    ).rejects.toThrow(/runtime/);
  });
});
