// verifiers' progress and scoring flags of `vf eval`, through the real binary against a scripted
// server: -d/--disable-tui (a plain line per update, also on a terminal) and
// -N/--no-interleave-scoring (nothing is scored before every rollout is generated).
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runVf } from "../src/testing/index.ts";
import { ITEMS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";
import { runVfInScript } from "./terminal.ts";

let project: TempProject;
let server: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  server = await startScriptedServer({ latencySeconds: 0.02 });
});
afterAll(async () => {
  await server.close();
  await project.remove();
});

const model = () => ["-m", "scripted", "-b", server.url];

describe("-d/--disable-tui", () => {
  it("prints one plain progress line per finished group", async () => {
    const run = await runVf(["eval", "items", ...model(), "-n", "20", "-r", "1", "-d"], { cwd: project.dir });
    expect(run.code).toBe(0);
    for (let done = 1; done <= 20; done++) {
      expect(run.stderr).toMatch(new RegExp(`^items ${done}/20 rollouts · `, "m"));
    }
    expect(run.stderr).toMatch(/^items done · 20\/20 rollouts/m);
  });

  it("writes lines, not a display redrawn in place, on a terminal too", async () => {
    const args = ["eval", "items", ...model(), "-n", "6", "-r", "1"];
    const live = await runVfInScript(args, { cwd: project.dir });
    expect(live.code).toBe(0);
    expect(live.output).toMatch(/\x1b\[J/); // the live display erases and redraws itself

    const plain = await runVfInScript([...args, "-d"], { cwd: project.dir });
    expect(plain.code).toBe(0);
    expect(plain.output).toMatch(/^items 6\/6 rollouts · /m);
    expect(plain.output).not.toMatch(/\x1b\[(\d*[AJK])/);
  });
});

describe("-N/--no-interleave-scoring", () => {
  // How many model requests the server had received when vf reported its first scored group. One
  // rollout at a time, each answered after 100 ms, leaves room for a slow reader of vf's output.
  const requestsAtFirstProgress = async (flags: string[]) => {
    const slow = await startScriptedServer({ latencySeconds: 0.1 });
    let seen: number | undefined;
    try {
      const args = ["eval", "items", "-m", "scripted", "-b", slow.url, "-n", "6", "-r", "2", "-c", "1", "-d"];
      const run = await runVf([...args, ...flags], {
        cwd: project.dir,
        onStderr: (stderr) => {
          if (seen === undefined && /^items \d+\/12 rollouts/m.test(stderr)) seen = slow.requests.length;
        },
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("reward: avg - 1, std - 0");
    } finally {
      await slow.close();
    }
    return seen;
  };

  it("scores only after every rollout is generated", async () => {
    expect(await requestsAtFirstProgress(["-N"])).toBe(12);
  });

  it("scores each group as it finishes without it", async () => {
    expect(await requestsAtFirstProgress([])).toBeLessThan(12);
  });
});
