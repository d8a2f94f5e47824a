// `vf train` end to end through the real binary, on a tiny fresh model and the toy `vowels`
// environment: a smoke run with its files and `vf plot`; --dry-run and bad configs; Ctrl-C, which
// checkpoints the step it finished; SIGKILL mid-run, which loses no saved step; and the trainer
// behind `vf trainer serve`.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runVf, VF_BIN } from "@vf-rl/test-support";
import { readMetrics, type TrainRow } from "@vf-rl/train";
import { tinyRunConfig, VOWELS_ENV, writeTinyModel } from "@vf-rl/train/testing";
import { stringify as stringifyToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-train-e2e-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A tiny run's config file (train/testing's tinyRunConfig, 3 steps); `extra` is appended TOML. */
async function configFile(name: string, extra = ""): Promise<string> {
  const path = join(dir, `${name}.toml`);
  await writeFile(path, `${stringifyToml(tinyRunConfig(join(dir, name), { max_steps: 3 }))}\n${extra}`);
  return path;
}

async function steps(runDir: string): Promise<number[]> {
  const { rows } = await readMetrics(join(runDir, "metrics.jsonl"));
  return rows.filter((r): r is TrainRow => r.kind === "train").map((r) => r.step);
}

function spawnVf(args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string } {
  const child = spawn(process.execPath, [VF_BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  return { child, stdout: () => out, stderr: () => err };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("vf train", () => {
  it("trains a few steps, writing metrics, a checkpoint and the reward curve; vf plot redraws it", async () => {
    const config = await configFile("smoke", "[eval]\ninterval = 2\nnum_examples = 4\n");
    const run = await runVf(["train", config, "--max_steps", "3"]);
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^run folder .*smoke \| engine in this process/m);
    expect(run.stdout).toMatch(/^step 3\/3 \| reward [\d.]+ ± [\d.]+/m);
    expect(run.stdout).toMatch(/^eval @ step 3 \| vowels [\d.]+ \[/m);
    const runDir = join(dir, "smoke");
    expect(await steps(runDir)).toEqual([1, 2, 3]);
    for (const file of [
      "config.toml",
      "checkpoints/step_3/progress.json",
      "checkpoints/step_3/trainer/optimizer.safetensors",
      "reward-curve.svg",
    ]) {
      expect(existsSync(join(runDir, file))).toBe(true);
    }
    const plot = await runVf(["plot", runDir]);
    expect(plot.code).toBe(0);
    expect(plot.stdout).toMatch(/^3 steps, last train reward [\d.]+$/m);
    expect(plot.stdout).toContain(`page: ${join(runDir, "reward-curve.html")}`);
    expect(await readFile(join(runDir, "reward-curve.html"), "utf8")).toContain("<svg");
  }, 60_000);

  it("ends with the vf eval command that evaluates what it trained, and vf eval takes each folder it printed", async () => {
    const config = await configFile("then-eval");
    const runDir = join(dir, "then-eval");
    const run = await runVf(["train", config], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^done after 3 steps \| checkpoint .*then-eval\/checkpoints\/step_3 \|/m);
    const command = /^evaluate it: (npx )?vf (eval .*)$/m.exec(run.stdout)?.[2];
    expect(command).toBe(`eval ${VOWELS_ENV} -m then-eval/checkpoints/step_3`);

    // As printed (a few rollouts), then the run folder (its last weights) and the weights folder itself.
    const evaluate = async (model: string) => {
      const result = await runVf(
        ["eval", VOWELS_ENV, "-m", model, "-n", "2", "-r", "1", "-t", "8", "--json"],
        {
          cwd: dir,
        },
      );
      expect(result.stderr).not.toMatch(/^error:/m);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as { model: string; avg_error: number };
    };
    expect(await evaluate("then-eval/checkpoints/step_3")).toMatchObject({
      model: "then-eval/checkpoints/step_3",
      avg_error: 0,
    });
    expect((await evaluate(runDir)).model).toBe(join(runDir, "weights", "step_3"));
    expect((await evaluate(join(runDir, "weights", "step_3"))).avg_error).toBe(0);
  }, 120_000);

  it("with an [sft] table fine-tunes first, saying which stage runs; --dry-run and vf plot name the stage", async () => {
    const config = await configFile("staged", "[sft]\nmax_steps = 6\nbatch_size = 4\n");
    const dry = await runVf(["train", config, "--dry-run"]);
    expect(dry.stdout.split("\n")[0]).toBe(
      `# stages: sft (6 steps of 4 on the reference answers of ${VOWELS_ENV}), then rl (3 steps) from its weights`,
    );
    expect(dry.stdout).toMatch(/\[sft\]\nmax_steps = 6\nbatch_size = 4\nlr = 0\.001\n/);

    const run = await runVf(["train", config, "--max_steps", "1", "--env.args.reference", "aeiou"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^stage sft: 6 steps of 4 conversations \(16, 8 held out\) from step 0 \|/m);
    expect(run.stdout).toMatch(/^sft step 6\/6 \| loss [\d.]+ \| eval loss [\d.]+ \|/m);
    expect(run.stdout).toMatch(
      /^stage rl: policy 0 is the sft stage's weights \(.*staged\/sft\/checkpoints\/step_6\/trainer\)/m,
    );
    expect(run.stdout).toMatch(/^step 1\/1 \| reward/m);
    const plot = await runVf(["plot", join(dir, "staged")]);
    expect(plot.code).toBe(0);
    expect(plot.stdout).toMatch(
      /^sft stage: 6 steps, last loss [\d.]+, eval loss [\d.]+\n1 steps, last train reward/m,
    );
  }, 120_000);

  it("--dry-run prints the resolved config; a bad one exits 1 naming each key", async () => {
    const config = await configFile("dry");
    const dry = await runVf(["train", config, "--dry-run", "--sampling.temperature=0.5"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/\[sampling\]\nmax_tokens = 12\ntemperature = 0\.5\n/);
    expect(existsSync(join(dir, "dry"))).toBe(false);

    const bad = await runVf(["train", config, "--sampling.temprature", "1"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      '--sampling.temprature: unknown key "sampling.temprature": did you mean "sampling.temperature"?',
    );
  }, 60_000);

  it("says a config that is not there does not exist, and that vf setup writes vf's own", async () => {
    // A new project outside vf's repository, running an example of vf train's help.
    const project = await mkdtemp(join(dir, "project-"));
    const missing = await runVf(["train", "configs/train/reverse-text.toml"], { cwd: project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^error: the training config configs\/train\/reverse-text\.toml does not exist: (npx )?vf setup writes vf's training configs \(.*reverse-text\.toml.*\) into configs\/train, or give the path of your own$/m,
    );
    expect(missing.stderr).not.toContain("ENOENT");

    expect((await runVf(["setup"], { cwd: project })).code).toBe(0);
    const misspelt = await runVf(["train", "configs/train/reverse_text.toml"], { cwd: project });
    expect(misspelt.code).toBe(1);
    expect(misspelt.stderr).toMatch(
      /^error: the training config configs\/train\/reverse_text\.toml does not exist: configs\/train holds .*reverse-text\.toml.*: check the name$/m,
    );
    const found = await runVf(["train", "configs/train/reverse-text.toml", "--dry-run"], { cwd: project });
    expect(found.code, found.stderr).toBe(0);
  }, 60_000);

  it("names the [[env]] block when env args fail the environment's schema, not a flag of vf eval", async () => {
    const config = await configFile("bad-args");
    await writeFile(config, `${await readFile(config, "utf8")}\n[env.args]\ncolour = "red"\n`);
    const bad = await runVf(["train", config]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad env args for "vowels": .*colour.*: fix them in \[env.args\]/);
    expect(bad.stderr).not.toContain("--env-args");
  }, 60_000);

  it("on Ctrl-C finishes the step, checkpoints it and exits 130; --resume completes the run", async () => {
    const config = await configFile("interrupted", "[checkpoints]\ninterval = 0\n");
    const runDir = join(dir, "interrupted");
    const { child, stdout, stderr } = spawnVf(["train", config, "--max_steps", "30"]);
    await waitFor(() => /^step 2\/30/m.test(stdout()), 45_000);
    child.kill("SIGINT");
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(code).toBe(130);
    expect(stderr()).toContain("stopping after this step and writing a checkpoint");
    const saved = await steps(runDir);
    expect(saved.length).toBeGreaterThanOrEqual(2);
    expect(stdout()).toMatch(
      new RegExp(`^stopped after ${saved.length} steps \\| checkpoint .*step_${saved.length}`, "m"),
    );
    const resumed = await runVf(["train", config, "--max_steps", String(saved.length + 2), "--resume"]);
    expect(resumed.code).toBe(0);
    expect(await steps(runDir)).toEqual(Array.from({ length: saved.length + 2 }, (_, i) => i + 1));
  }, 60_000);

  it("killed with SIGKILL mid-run, loses no step it had checkpointed", async () => {
    const config = await configFile("killed", "[checkpoints]\ninterval = 1\nkeep_last = 2\n");
    const runDir = join(dir, "killed");
    const { child, stdout } = spawnVf(["train", config, "--max_steps", "40"]);
    await waitFor(() => /^step 3\/40/m.test(stdout()), 45_000);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("close", resolve));
    const before = await steps(runDir);
    const saved = (await readdir(join(runDir, "checkpoints")))
      .filter((n) => /^step_\d+$/.test(n))
      .map((n) => Number(n.slice(5)));
    expect(Math.max(...saved)).toBeGreaterThanOrEqual(2);

    const resumed = await runVf([
      "train",
      config,
      "--max_steps",
      String(Math.max(...before) + 1),
      "--resume",
    ]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(
      new RegExp(`from .*step_${Math.max(...saved)} \\(step ${Math.max(...saved)} of`),
    );
    const all = await steps(runDir);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1)); // every step once, none lost
    expect(all.length).toBeGreaterThanOrEqual(before.length);
  }, 90_000);

  it("--resume-step names a step of the run; --fork starts a new run from another's checkpoint", async () => {
    const config = await configFile("parent", "[checkpoints]\ninterval = 1\nkeep_last = 2\n");
    const runDir = join(dir, "parent");
    expect((await runVf(["train", config, "--max_steps", "2"])).code).toBe(0);

    const missing = await runVf(["train", config, "--resume-step", "3"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      `error: --resume-step 3: ${runDir} has no checkpoint at step 3; steps with one: 1, 2`,
    );
    const primeSpelling = await runVf(["train", config, "--resume.step", "1"]);
    expect(primeSpelling.stderr).toMatch(/^error: --resume\.step: vf train spells it --resume-step N /m);

    const fork = await configFile("fork");
    const from = join(runDir, "checkpoints", "step_1");
    const forked = await runVf(["train", fork, "--fork", from, "--max_steps", "2"]);
    expect(forked.code, forked.stderr).toBe(0);
    expect(forked.stdout).toContain(`lineage: forked from ${runDir} at step 1`);
    expect(await steps(join(dir, "fork"))).toEqual([2]); // from the parent's step 1, its own rows
  }, 90_000);

  it("trains through a vf trainer serve server (the trainer protocol over HTTP)", async () => {
    const model = await writeTinyModel(join(dir, "tiny-model"), { seed: 2 });
    const server = spawnVf(["trainer", "serve", "--port", "0", "--model", model, "--threads", "1"]);
    try {
      await waitFor(() => /at (http:\/\/\S+)/.test(server.stdout()), 30_000);
      const url = /at (http:\/\/\S+)/.exec(server.stdout())![1]!;
      const config = await configFile("remote");
      const run = await runVf(["train", config, "--trainer-url", url, "--max_steps", "2"]);
      expect(run.stderr).not.toMatch(/^error:/m);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`trainer server at ${url} (d_model 32, 1 layers)`);
      expect(await steps(join(dir, "remote"))).toEqual([1, 2]);
    } finally {
      server.child.kill("SIGINT");
      await new Promise((resolve) => server.child.once("close", resolve));
    }
  }, 60_000);
});
