/**
 * What `vf train` gains (a benchmark, not a test): RL from the built-in base model with a shipped
 * config, through the real `vf` binary, then `vf eval ENV` of the base model and of the trained one
 * on the same rows (400 rollouts each by default). The acceptance targets of vf train, on
 * reverse-text: training takes at most 15 minutes, and the trained model beats the base by at least
 * 0.15 mean reward with the two 95% intervals apart. Prints both scores, their intervals, the time
 * and where the reward curve is.
 *
 *   npx tsx bench/train/rl-gain.ts [--env reverse-text] [--config configs/train/ENV.toml]
 *       [--eval-args JSON] [--rows 100] [--rollouts 4] [--out outputs/bench/ENV] [--model DIR]
 *       [--skip-train]
 *
 * The evaluations use the environment's default args (what `vf eval ENV` scores) unless
 * --eval-args gives others, e.g. the config's [env.args].
 *
 * Run it on a quiet machine: other processes on the two cores slow sampling and training alike.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BASE_MODEL_DIR } from "@vf-rl/engine";
import { latestCheckpoint, RunLayout, rewardInterval } from "@vf-rl/train";

const VF = resolve(import.meta.dirname, "..", "..", "packages", "cli", "bin", "vf.js");
const { values } = parseArgs({
  options: {
    env: { type: "string", default: "reverse-text" },
    config: { type: "string" },
    "eval-args": { type: "string" },
    rows: { type: "string", default: "100" },
    rollouts: { type: "string", default: "4" },
    out: { type: "string" },
    model: { type: "string" },
    "skip-train": { type: "boolean", default: false },
  },
});
const envId = values.env!;
const configPath = values.config ?? `configs/train/${envId}.toml`;
const outDir = values.out ?? `outputs/bench/${envId}`;
const runDir = resolve(outDir, "run");
const base = values.model ?? BASE_MODEL_DIR;

/** Runs vf to the end, streaming its output; resolves with the exit code and what it printed. */
function vf(args: string[], echo = true): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [VF, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (echo) process.stdout.write(chunk);
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout }));
  });
}

/** `vf serve` on a checkpoint, on a free port; resolves once it prints its URL. */
function serve(model: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [VF, "serve", "--model", model, "--port", "0"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/\S+\/v1/.exec(out)?.[0];
      if (url) done({ url, child });
    });
    child.on("error", fail);
    child.on("close", (code) => fail(new Error(`vf serve ${model} exited with ${code}`)));
  });
}

/** `vf eval ENV` of a checkpoint: every rollout's reward. */
async function evaluate(model: string, label: string): Promise<number[]> {
  const server = await serve(model);
  const outputDir = resolve(outDir, `eval-${label}`);
  await rm(outputDir, { recursive: true, force: true });
  try {
    const args = ["eval", envId, "-m", "vf-builtin", "-b", server.url];
    if (values["eval-args"]) args.push("-a", values["eval-args"]);
    const { code } = await vf(
      [...args, "-n", values.rows!, "-r", values.rollouts!, "-s", "-o", outputDir, "--json"],
      false,
    );
    if (code !== 0) throw new Error(`vf eval of ${label} exited with ${code}`);
  } finally {
    server.child.removeAllListeners("close");
    server.child.kill("SIGINT");
  }
  const evals = join(outputDir, "evals");
  const [envModel] = await readdir(evals);
  const [run] = await readdir(join(evals, envModel!));
  const lines = (await readFile(join(evals, envModel!, run!, "results.jsonl"), "utf8")).trim().split("\n");
  return lines.map((line) => (JSON.parse(line) as { reward: number }).reward);
}

const started = Date.now();
if (!values["skip-train"]) {
  await rm(runDir, { recursive: true, force: true });
  const train = await vf([
    "train",
    configPath,
    "--output_dir",
    runDir,
    ...(values.model ? ["--model", base] : []),
  ]);
  if (train.code !== 0) throw new Error(`vf train exited with ${train.code}`);
}
const trainSeconds = (Date.now() - started) / 1000;
const checkpoint = await latestCheckpoint(new RunLayout(runDir));
if (!checkpoint) throw new Error(`${runDir} has no checkpoint: did vf train finish?`);
const trained = join(checkpoint.dir, "trainer");

const baseRewards = await evaluate(base, "base");
const trainedRewards = await evaluate(trained, "trained");
const before = rewardInterval(baseRewards);
const after = rewardInterval(trainedRewards);
const gain = after.reward_mean - before.reward_mean;
const apart = after.ci95_low > before.ci95_high;
const layout = new RunLayout(runDir);
const fmt = (r: typeof before) =>
  `${r.reward_mean.toFixed(3)}  95% CI [${r.ci95_low.toFixed(3)}, ${r.ci95_high.toFixed(3)}]`;
// Counted, not -n x -r: an eval split smaller than --rows gives fewer.
const rollouts = baseRewards.length;
console.log(`
${envId}, ${rollouts} rollouts each${trainedRewards.length !== rollouts ? ` (trained: ${trainedRewards.length})` : ""} (vf eval ${envId} -n ${values.rows} -r ${values.rollouts}${values["eval-args"] ? ` -a '${values["eval-args"]}'` : ""})
  base     ${fmt(before)}   (${base})
  trained  ${fmt(after)}   (${trained}, step ${checkpoint.progress.step})
  gain     ${gain >= 0 ? "+" : ""}${gain.toFixed(3)}   intervals ${apart ? "apart" : "overlap"}
  training ${values["skip-train"] ? "skipped (--skip-train)" : `${(trainSeconds / 60).toFixed(1)} min wall clock (vf train ${configPath})`}
  curve    ${existsSync(layout.curveHtml) ? layout.curveHtml : "(none)"}`);
// The acceptance targets of vf train are set on reverse-text.
if (envId === "reverse-text") {
  console.log(
    `  targets  time ≤ 15 min: ${values["skip-train"] ? "-" : trainSeconds <= 900 ? "met" : "MISSED"}; gain ≥ 0.15 with intervals apart: ${gain >= 0.15 && apart ? "met" : "MISSED"}`,
  );
}
