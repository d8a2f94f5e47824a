// What `vf eval` prints after a run, through the real binary against a scripted server: averages
// before per-rollout values, which only small runs (or -v) show; the messages of reward functions
// that raised; -A; and colour on a terminal only (a pseudo-terminal via util-linux `script`).
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEMS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";
import { runVfInScript } from "./terminal.ts";

let project: TempProject;
let server: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  server = await startScriptedServer({}); // echoes the prompt: every rollout earns reward 1
});
afterAll(async () => {
  await server.close();
  await project.remove();
});

const evalItems = (flags: string[], env?: Record<string, string>) =>
  runVf(["eval", "items", "-m", "scripted", "-b", server.url, ...flags], { cwd: project.dir, env });
// Select Graphic Rendition: the escape sequences that colour text.
const SGR = /\x1b\[[0-9;]*m/;

describe("vf eval's summary", () => {
  it("shows the averages of a large run and leaves its per-rollout values to -v", async () => {
    const run = await evalItems(["-n", "40", "-r", "2"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines).toContain("reward: avg - 1, std - 0");
    expect(lines.some((line) => /^parity: avg - /.test(line))).toBe(true);
    expect(run.stdout).not.toMatch(/^r1: /m);
    expect(run.stdout).toContain("(per-rollout values of 40 examples not shown: -v shows them)");

    const verbose = await evalItems(["-n", "40", "-r", "2", "-v"]);
    expect(verbose.code).toBe(0);
    const rows = verbose.stdout.split("\n");
    const r1 = rows.indexOf(`r1: [${Array(40).fill("1").join(", ")}]`);
    expect(r1).toBeGreaterThan(rows.indexOf("reward: avg - 1, std - 0"));
    expect(r1).toBeGreaterThan(rows.findIndex((line) => line.startsWith("Usage:")));
  });

  it("shows a small run's per-rollout values after every average", async () => {
    const run = await evalItems(["-n", "3", "-r", "2"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    const averages = lines.findIndex((line) => line.startsWith("parity: avg"));
    expect(averages).toBeGreaterThan(0);
    expect(lines.indexOf("r2: [1, 1, 1]")).toBeGreaterThan(averages);
  });

  it("prints the first message of each kind of reward function error, and every message with -v", async () => {
    const run = await evalItems(["-n", "20", "-r", "1"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("reward function errors (scored 0): parity: 12");
    expect(run.stdout).toContain("  parity: RangeError (10): item 1 is odd");
    expect(run.stdout).toContain("  parity: TypeError (2): cannot score a four");
    expect(run.stdout).not.toContain("item 3 is odd");

    const verbose = await evalItems(["-n", "20", "-r", "1", "-v"]);
    expect(verbose.stdout).toContain("  parity: RangeError (10):");
    for (const odd of [1, 3, 5, 19]) expect(verbose.stdout).toContain(`    item ${odd} is odd`);
    expect(verbose.stdout).toContain("    2× cannot score a four");
  });

  it("leaves the example out with -A", async () => {
    const full = await evalItems(["-n", "2", "-r", "1"]);
    expect(full.stdout).toContain("--- Example ---");
    const short = await evalItems(["-n", "2", "-r", "1", "-A"]);
    expect(short.code).toBe(0);
    expect(short.stdout).not.toContain("--- Example ---");
    expect(short.stdout).not.toContain("completion:");
    expect(short.stdout).toContain("reward: avg - 1, std - 0");
  });
});

describe("colour", () => {
  const flags = ["-n", "4", "-r", "1"];

  it("colours the reward and the errors on a terminal", async () => {
    const run = await runVfInScript(["eval", "items", "-m", "scripted", "-b", server.url, ...flags], {
      cwd: project.dir,
    });
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/reward: avg - \x1b\[[0-9;]*m(\x1b\[[0-9;]*m)?1\x1b/);
    expect(run.output).toMatch(/\x1b\[31mreward function errors \(scored 0\)/);
    // items has no eval split, which vf warns about
    expect(run.output).toMatch(/\x1b\[33mwarning:\x1b\[39m this environment has no eval split/);
  });

  it("writes no colour on a terminal with NO_COLOR, nor into a pipe", async () => {
    const noColour = await runVfInScript(["eval", "items", "-m", "scripted", "-b", server.url, ...flags], {
      cwd: project.dir,
      env: { NO_COLOR: "1" },
    });
    expect(noColour.code).toBe(0);
    expect(noColour.output).toContain("reward: avg - 1");
    expect(noColour.output).not.toMatch(SGR);

    const piped = await evalItems(flags, { NO_COLOR: "" });
    expect(piped.code).toBe(0);
    expect(piped.stdout + piped.stderr).not.toMatch(SGR);
  });

  it("colours a pipe with FORCE_COLOR", async () => {
    const forced = await evalItems(flags, { NO_COLOR: "", FORCE_COLOR: "1" });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(SGR);
  });
});
