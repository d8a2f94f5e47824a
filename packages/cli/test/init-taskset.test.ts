// `vf init --taskset` as a user runs it: the scaffold validates with no model, passes its own tests,
// and an agent (the chat harness, whose MCP client finds the task's submit tool) is scored by what it
// submitted, through `vf eval` against a scripted model.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { byPrompt, lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type TempProject, tempProject } from "./temp-project.ts";

vi.setConfig({ testTimeout: 120_000 });

const VITEST = join(import.meta.dirname, "..", "..", "..", "node_modules", "vitest", "vitest.mjs");

let project: TempProject;
let model: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  // Submits each capital with the task's tool, but two wrong ones (Kyoto, Toronto).
  const capitals: Record<string, string> = {
    France: "Paris",
    Japan: "Kyoto",
    Peru: "Lima",
    Kenya: "Nairobi",
    Canada: "Toronto",
    Norway: "Oslo",
  };
  model = await startScriptedServer({
    reply: byPrompt((messages, request) => {
      const last = messages.at(-1)!;
      if (last.role === "tool") return { type: "message", content: "submitted" };
      const country = Object.keys(capitals).find((c) => lastUserText(messages).includes(`capital of ${c}?`));
      const submit = request.tools?.find((t) => /submit$/.test(t.function.name));
      if (!country || !submit) return { type: "message", content: "no submit tool was offered" };
      return {
        type: "message",
        content: "",
        toolCalls: [{ name: submit.function.name, arguments: { answer: capitals[country]! } }],
      };
    }),
  });
});
afterAll(async () => {
  await model.close();
  await project.remove();
});

describe("vf init --taskset", () => {
  it("writes a taskset that validates with no model, passes its own tests, and scores an agent's submissions", async () => {
    const init = await runVf(["init", "capital-tasks", "--taskset"], { cwd: project.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^ {2}(npx )?vf eval validate \.\/environments\/capital-tasks {4}no model/m);
    expect(init.stdout).toMatch(
      /^ {2}(npx )?vf eval \.\/environments\/capital-tasks --harness bash -m MODEL/m,
    );

    const validated = await runVf(["eval", "validate", "./environments/capital-tasks"], { cwd: project.dir });
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toMatch(/6 rows checked, 6 references scored/);

    const dir = join(project.dir, "environments", "capital-tasks");
    // Its own npm test (vitest in its folder), with no colours to read past.
    const own = await promisify(execFile)(process.execPath, [VITEST, "run"], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    expect(own.stdout).toMatch(/Tests\s+3 passed \(3\)/);

    const evaluated = await runVf(
      [
        "eval",
        "./environments/capital-tasks",
        "--harness",
        "chat",
        "-m",
        "scripted",
        "-b",
        model.url,
        "-r",
        "1",
        "--json",
      ],
      { cwd: project.dir },
    );
    expect(evaluated.code, evaluated.stderr).toBe(0);
    const summary = JSON.parse(evaluated.stdout);
    expect(summary).toMatchObject({ num_examples: 6, rollouts_per_example: 1 });
    expect(summary.avg_reward).toBeCloseTo(4 / 6);
    expect(summary.avg_metrics.answered).toBe(1);
  });
});
