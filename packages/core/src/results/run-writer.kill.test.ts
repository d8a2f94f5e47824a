import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contentText } from "../messages/message.ts";
import { RolloutRecord } from "../records/rollout-record.ts";
import { planResume } from "./plan-resume.ts";
import { readRun } from "./read-run.ts";
import { RunWriter } from "./run-writer.ts";

const writerModule = fileURLToPath(new URL("./run-writer.ts", import.meta.url));
const recordModule = fileURLToPath(new URL("../records/rollout-record.ts", import.meta.url));

// A child process that saves groups of 2 big rollouts as fast as it can, until it is killed.
const childScript = (dir: string) => `
import { RunWriter } from ${JSON.stringify(writerModule)};
import { RolloutRecord } from ${JSON.stringify(recordModule)};
const writer = await RunWriter.open({ dir: ${JSON.stringify(dir)} });
await writer.writeMetadata({ env_id: "echo", model: "m", num_examples: 100000, rollouts_per_example: 2, status: "running" });
const big = "x".repeat(500_000);
for (let e = 0; ; e++) {
  const row = (i) => RolloutRecord.parse({ example_id: e, rollout_index: i, prompt: [{ role: "user", content: big }], completion: [], reward: 1 });
  await writer.append([row(0), row(1)]);
  if (e === 2) process.stdout.write("saving\\n");
}
`;

describe("RunWriter under SIGKILL", () => {
  it("leaves only whole rows, or one torn last line that resuming removes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-kill-"));
    const script = join(dir, "child.mts");
    await writeFile(script, childScript(join(dir, "run")));
    const child = spawn(process.execPath, ["--conditions=vf-source", "--import", "tsx", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", () => resolve());
      child.on("exit", (code) => reject(new Error(`child exited early with ${code}`)));
    });
    // Let it run on a little, so the kill lands somewhere inside the stream of writes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    const crashed = await readRun(join(dir, "run"));
    expect(crashed.records.length).toBeGreaterThanOrEqual(6);
    // At most the last line can be damaged, and it is never counted.
    expect(crashed.warnings.length).toBeLessThanOrEqual(1);
    expect(crashed.records.every((r) => contentText(r.prompt[0]?.content).length === 500_000)).toBe(true);

    const plan = await planResume({
      outputDir: dir,
      envId: "echo",
      model: "m",
      runDir: join(dir, "run"),
      settings: {
        env_args: {},
        num_examples: 100000,
        rollouts_per_example: 2,
        shuffle: false,
        shuffle_seed: 0,
        sampling_args: {},
      },
    });
    if (plan.type !== "resume") throw new Error("expected a plan");
    const next = Math.max(...plan.records.map((r) => r.example_id)) + 1;
    const writer = await RunWriter.open({ dir: plan.dir, resume: true, lock: plan.lock });
    const missing = [...Array(next + 1).keys()].flatMap((e) =>
      [0, 1].filter((i) => !plan.completed.get(e)?.has(i)).map((i) => ({ e, i })),
    );
    await writer.append(
      missing.map(({ e, i }) =>
        RolloutRecord.parse({ example_id: e, rollout_index: i, prompt: [], completion: [], reward: 0 }),
      ),
    );
    const after = await readRun(plan.dir);
    expect(after.warnings).toEqual([]);
    const keys = after.records.map((r) => `${r.example_id}/${r.rollout_index}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(2 * (next + 1));
  });
});
