// vf's own commands using an env server in another process: `vf eval --env-server <address>`
// gives the same rows as the in-process evaluation, and `vf train` with `[[env]] address` trains on
// an environment it never loads itself.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf, VF_BIN } from "@vf-rl/test-support";
import { readMetrics, type TrainRow } from "@vf-rl/train";
import { tinyRunConfig, VOWELS_ENV } from "@vf-rl/train/testing";
import { stringify as stringifyToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
let scripted: ScriptedServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-env-server-e2e-"));
  scripted = await startScriptedServer({ tokens: true, record: false });
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await scripted?.close();
  await rm(dir, { recursive: true, force: true });
});

/** `vf env serve <env>` in its own process; resolves with the address it prints. */
async function serve(env: string): Promise<string> {
  const child = spawn(process.execPath, [VF_BIN, "env", "serve", env, "--address", "tcp://127.0.0.1:0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`vf env serve exited with ${code}`)));
  });
}

/**
 * A run's saved rows in example and rollout order: a run saves each row as its rollout finishes,
 * and a loaded machine can change that order.
 */
async function rows(runDir: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(runDir, "results.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .sort(
      (a, b) =>
        Number(a.example_id) - Number(b.example_id) || Number(a.rollout_index) - Number(b.rollout_index),
    );
}

describe("vf with an env server in another process", () => {
  it("vf eval --env-server saves the same rows as the in-process run", async () => {
    const address = await serve("reverse-text");
    const args = [
      "eval",
      "reverse-text",
      "-m",
      "scripted",
      "-b",
      scripted.url,
      "-n",
      "4",
      "-r",
      "2",
      "-s",
      "--json",
    ];
    const local = await runVf([...args, "-o", join(dir, "local")]);
    const served = await runVf([...args, "-o", join(dir, "served"), "--env-server", address]);
    expect(served.code, served.stderr).toBe(0);
    const [a, b] = [JSON.parse(local.stdout), JSON.parse(served.stdout)];
    expect(b.avg_reward).toBe(a.avg_reward);
    const keep = (r: Record<string, unknown>) => [
      r.example_id,
      r.rollout_index,
      r.reward,
      r.completion,
      r.metrics,
    ];
    const localRows = (await rows(a.run_dir)).map(keep);
    const servedRows = await rows(b.run_dir);
    expect(servedRows.map(keep)).toEqual(localRows);
    expect(servedRows).toHaveLength(8);
    const trajectory = servedRows[0]!.trajectory as Array<{ tokens: { completion_ids: number[] } | null }>;
    // The scripted server returns token ids; they come back across the wire into the saved row.
    expect(trajectory[0]!.tokens!.completion_ids.length).toBeGreaterThan(0);
  }, 180_000);

  it.each(["openai_responses", "anthropic_messages"] as const)(
    "vf eval --env-server calls the model over %s, as the in-process run would",
    async (api) => {
      const server = await startScriptedServer();
      try {
        const run = await runVf([
          "eval",
          "reverse-text",
          "-m",
          "scripted",
          "-b",
          server.url,
          "--api-client-type",
          api,
          "-n",
          "2",
          "-r",
          "1",
          "--env-server",
          "--json",
        ]);
        expect(run.code, run.stderr).toBe(0);
        expect(JSON.parse(run.stdout).avg_error).toBe(0);
        expect(new Set(server.apis)).toEqual(new Set([api]));
      } finally {
        await server.close();
      }
    },
    180_000,
  );

  it("vf eval --env-server starts its own pool of -w workers", async () => {
    const run = await runVf([
      "eval",
      "reverse-text",
      "-m",
      "scripted",
      "-b",
      scripted.url,
      "-n",
      "6",
      "-r",
      "2",
      "-c",
      "8",
      "--env-server",
      "-w",
      "2",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/worker 0 ready/);
    expect(run.stderr).toMatch(/worker 1 ready/);
    expect(JSON.parse(run.stdout).avg_error).toBe(0);
  }, 180_000);

  it("vf train trains on an [[env]] served at an address, an id it could not load itself", async () => {
    const address = await serve(VOWELS_ENV);
    const config = join(dir, "served.toml");
    const env = [{ id: "vowels-elsewhere", address }];
    await writeFile(config, stringifyToml(tinyRunConfig(join(dir, "train"), { max_steps: 2, env })));
    const run = await runVf(["train", config]);
    expect(run.code, run.stderr).toBe(0);
    const { rows: metrics } = await readMetrics(join(dir, "train", "metrics.jsonl"));
    const train = metrics.filter((r): r is TrainRow => r.kind === "train");
    expect(train.map((r) => r.step)).toEqual([1, 2]);
  }, 300_000);
});
