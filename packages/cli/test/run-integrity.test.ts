// Run folders under real concurrent and killed vf processes: one writer at a time (a lock naming its
// pid), a killed run shown as interrupted and taken over on resume, duplicate rows reported by
// `vf view`, and `vf view`'s exit status when runs cannot be read.
import { type ChildProcess, spawn } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { byPrompt, lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf, VF_BIN, type VfResult } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempProject, tempProject } from "./temp-project.ts";

const capitals: Record<string, string> = { France: "Paris", Japan: "Tokyo", Kenya: "Nairobi", Peru: "Lima" };

let project: TempProject;
let server: ScriptedServer;
// While closed, the model holds every answer: a vf eval in flight stays in flight (and keeps its lock).
let gate: Promise<void> = Promise.resolve();
let openGate = () => {};
const closeGate = () => {
  gate = new Promise((resolve) => {
    openGate = resolve;
  });
};

beforeAll(async () => {
  project = await tempProject();
  const init = await runVf(["init", "capitals"], { cwd: project.dir });
  expect(init.code).toBe(0);
  server = await startScriptedServer({
    reply: byPrompt(async (messages) => {
      await gate;
      const country = Object.keys(capitals).find((c) => lastUserText(messages).includes(c));
      return `<answer>\n${country ? capitals[country] : "?"}\n</answer>`;
    }),
  });
}, 120_000);
afterAll(async () => {
  openGate();
  await server.close();
  await project.remove();
});

/** A vf process we can see the pid of and kill. */
function startVf(args: string[]): { child: ChildProcess; done: Promise<VfResult> } {
  const child = spawn(process.execPath, [VF_BIN, ...args], {
    cwd: project.dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const done = new Promise<VfResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

const evalFlags = (n: number, outputDir: string) => [
  "eval",
  "capitals",
  "-m",
  "scripted",
  "-b",
  server.url,
  "-a",
  '{"numEval": 4}',
  "-n",
  String(n),
  "-r",
  "2",
  "-s",
  "-o",
  outputDir,
];

async function rowKeys(runDir: string): Promise<string[]> {
  const text = await readFile(join(runDir, "results.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => {
      const row = JSON.parse(line);
      return `${row.example_id}/${row.rollout_index}`;
    });
}

/** Polls (at most ~60 s) until `check` holds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("condition not met within the bounded wait");
}

describe("one writer per run folder", { timeout: 120_000 }, () => {
  it("lets only one of two concurrent vf eval -R write a run; the other exits 1 naming the pid that holds it", async () => {
    const out = join(project.dir, "concurrent");
    const started = await runVf([...evalFlags(2, out), "--json"], { cwd: project.dir });
    expect(started.code).toBe(0);
    const runDir = JSON.parse(started.stdout).run_dir;

    closeGate();
    const a = startVf([...evalFlags(4, out), "-R", "--json"]);
    const b = startVf([...evalFlags(4, out), "-R", "--json"]);
    // The winner waits on the model with the gate closed, so the first to exit is the loser.
    const loser = await Promise.race([
      a.done.then((result) => ({ result, winner: b })),
      b.done.then((result) => ({ result, winner: a })),
    ]);
    expect(loser.result.code).toBe(1);
    const errors = loser.result.stderr.split("\n").filter((line) => line.startsWith("error:"));
    expect(errors).toEqual([
      expect.stringContaining(`${runDir} is being written by process ${loser.winner.child.pid} on `),
    ]);
    openGate();
    const winner = await loser.winner.done;
    expect(winner.code).toBe(0);
    expect(JSON.parse(winner.stdout)).toMatchObject({ status: "complete", run_dir: runDir });
    const keys = await rowKeys(runDir);
    expect(keys).toHaveLength(8);
    expect(new Set(keys).size).toBe(8);
  });

  it("shows a run killed with SIGKILL as interrupted, and resume takes it over with a note", async () => {
    const out = join(project.dir, "killed");
    closeGate();
    const victim = startVf(evalFlags(4, out));
    const metadataPath = async () => {
      const list = await runVf(["view", out], { cwd: project.dir });
      return list.stdout.includes("running");
    };
    await eventually(metadataPath);
    victim.child.kill("SIGKILL");
    await victim.done;
    openGate();

    const listed = await runVf(["view", out], { cwd: project.dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/capitals\s+scripted\s+.*0 rollouts\s+interrupted/);

    const resumed = await runVf([...evalFlags(4, out), "-R", "--json"], { cwd: project.dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(
      new RegExp(`warning: took over .* from process ${victim.child.pid}, which stopped without finishing`),
    );
    const summary = JSON.parse(resumed.stdout);
    expect(summary.status).toBe("complete");
    expect(await rowKeys(summary.run_dir)).toHaveLength(8);
  });

  it("vf view reports rows two writers duplicated, counting each rollout once", async () => {
    const out = join(project.dir, "duplicated");
    const saved = await runVf([...evalFlags(2, out), "--json"], { cwd: project.dir });
    const runDir = JSON.parse(saved.stdout).run_dir;
    const lines = (await readFile(join(runDir, "results.jsonl"), "utf8")).trim().split("\n");
    await appendFile(join(runDir, "results.jsonl"), `${lines.slice(0, 2).join("\n")}\n`);

    const listed = await runVf(["view", out], { cwd: project.dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/4 rollouts\s+complete\s+\(2 duplicate rows\)/);
    expect(listed.stderr).toContain(`warning: ${runDir} holds 2 duplicate rows`);
    const json = await runVf(["view", "--json", out], { cwd: project.dir });
    expect(JSON.parse(json.stdout)).toMatchObject([{ rows: 4, duplicates: 2, warnings: 2 }]);
  });
});

describe("vf view exit status", { timeout: 120_000 }, () => {
  it("says what it found in an empty folder and exits 1", async () => {
    const empty = await mkdtemp(join(tmpdir(), "vf-empty-"));
    const listed = await runVf(["view", empty], { cwd: project.dir });
    expect(listed.code).toBe(1);
    expect(listed.stdout).toBe("");
    expect(listed.stderr).toContain(`error: no runs under ${empty}: save one with vf eval <env> -s`);
    const json = await runVf(["view", "--json", empty], { cwd: project.dir });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it("lists an unreadable run with its reason; exits 1 in --json mode, and in list mode only when nothing was readable", async () => {
    const out = await mkdtemp(join(tmpdir(), "vf-broken-"));
    const broken = join(out, "evals", "echo--m", "bad00001");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "metadata.json"), "{not json");
    await writeFile(join(broken, "results.jsonl"), "");

    const alone = await runVf(["view", out], { cwd: project.dir });
    expect(alone.code).toBe(1);
    expect(alone.stdout).toContain(
      `${broken}  unreadable: ${join(broken, "metadata.json")} is not valid JSON`,
    );
    expect(alone.stderr).toContain("none of the 1 runs");

    const saved = await runVf([...evalFlags(1, out), "--json"], { cwd: project.dir });
    expect(saved.code).toBe(0);
    const listed = await runVf(["view", out], { cwd: project.dir });
    expect(listed.code).toBe(0);
    const json = await runVf(["view", "--json", out], { cwd: project.dir });
    expect(json.code).toBe(1);
    const runs = JSON.parse(json.stdout);
    expect(runs).toHaveLength(2);
    expect(runs).toContainEqual(
      expect.objectContaining({ dir: broken, error: expect.stringContaining("not valid JSON") }),
    );
    expect(json.stderr).toContain(`error: 1 of 2 runs under ${out} could not be read`);
  });
});
