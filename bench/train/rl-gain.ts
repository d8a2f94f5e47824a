/**
 * What `vf train` gains (a benchmark, not a test): RL from the built-in base model with a shipped
 * config, through the real `vf` binary, then `vf eval ENV` of the base model and of the trained one
 * on the same held-out rows, twice each: sampled as the environment samples by default (`-n 100
 * -r 4`: 400 rollouts) and greedy (`-T 0`, one rollout per row: greedy rollouts of a row are all
 * the same, so repeating them would only narrow the interval falsely). Prints the four scores side
 * by side with their 95% intervals, the gains, the time, the load average and where the reward
 * curve is, then the acceptance targets of the environment when it has some:
 *
 *   reverse-text      training ≤ 15 min; sampled gain ≥ 0.15, intervals apart; greedy intervals apart
 *   tool-arithmetic   training ≤ 20 min; greedy gain ≥ 0.15 on ≥ 400 rollouts, intervals apart
 *   bash-arithmetic   training ≤ 30 min; greedy gain ≥ 0.15 on ≥ 200 rollouts, intervals apart
 *                     (through the bash harness, from its warm start: see its README)
 *   alphabet-sort     training (its [sft] stage and RL) ≤ 30 min; greedy gain ≥ 0.25 on the 100 eval
 *                     rows, intervals apart
 *   wordle            training (its [sft] stage and RL) ≤ 30 min; sampled gain, intervals apart
 *                     (with --eval-args '{"numEval":100}', the config's held-out games)
 *
 *   npx tsx bench/train/rl-gain.ts [--env reverse-text] [--config configs/train/ENV.toml]
 *       [--eval-args JSON | --eval-config configs/eval/ENV.toml] [--rows 100] [--rollouts 4]
 *       [--greedy-rows N] [--out outputs/bench/ENV] [--model DIR] [--skip-train]
 *
 * --greedy-rows defaults to rows × rollouts (as many greedy rollouts as sampled ones, when the eval
 * split has that many rows; vf eval warns and takes them all when it has fewer). The evaluations use
 * the environment's default args unless --eval-args gives others, e.g. the config's [env.args]; an
 * agent's taskset is evaluated with --eval-config, an eval config whose one [[eval]] block names the
 * taskset, harness and runtime as the training config does (`vf eval CONFIG`, the flags over it).
 * Intervals are over rows (the mean of each row's rollouts, then a normal interval over rows), since
 * rollouts of one row are not independent draws.
 *
 * Run it on a quiet machine: other processes on the two cores slow sampling and training alike.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { loadavg } from "node:os";
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
    "eval-config": { type: "string" },
    rows: { type: "string", default: "100" },
    rollouts: { type: "string", default: "4" },
    "greedy-rows": { type: "string" },
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
const greedyRows = values["greedy-rows"] ?? String(Number(values.rows) * Number(values.rollouts));

/** The acceptance targets of `vf train` on an environment. */
interface Targets {
  maxMinutes: number;
  /** Least gain of the sampled mean, with the intervals apart. */
  sampledGain?: number;
  /** Least gain of the greedy mean, with the intervals apart (0: apart is enough; absent: no target). */
  greedyGain?: number;
  /** Fewest greedy rollouts the greedy gain counts on. */
  greedyRollouts: number;
}
const TARGETS: Record<string, Targets> = {
  "reverse-text": { maxMinutes: 15, sampledGain: 0.15, greedyGain: 0, greedyRollouts: 0 },
  "tool-arithmetic": { maxMinutes: 20, greedyGain: 0.15, greedyRollouts: 400 },
  "bash-arithmetic": { maxMinutes: 30, greedyGain: 0.15, greedyRollouts: 200 },
  "alphabet-sort": { maxMinutes: 30, greedyGain: 0.25, greedyRollouts: 100 },
  wordle: { maxMinutes: 30, sampledGain: 0, greedyRollouts: 0 },
};

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

/** How one evaluation samples: the environment's default sampling, or greedy. */
type Mode = "sampled" | "greedy";

/** `vf eval` flags of a mode. */
function modeFlags(mode: Mode): string[] {
  return mode === "sampled"
    ? ["-n", values.rows!, "-r", values.rollouts!]
    : ["-n", greedyRows, "-r", "1", "-T", "0"];
}

/** A score over rows: each row's mean reward, then a 95% interval over the rows. */
interface Score {
  mean: number;
  low: number;
  high: number;
  rollouts: number;
  rows: number;
}

function scoreOf(rows: { example_id: number; reward: number }[]): Score {
  const byRow = new Map<number, number[]>();
  for (const { example_id, reward } of rows)
    byRow.set(example_id, [...(byRow.get(example_id) ?? []), reward]);
  const means = [...byRow.values()].map((r) => r.reduce((a, b) => a + b, 0) / r.length);
  const interval = rewardInterval(means);
  return {
    mean: rows.reduce((a, r) => a + r.reward, 0) / Math.max(1, rows.length),
    low: interval.ci95_low,
    high: interval.ci95_high,
    rollouts: rows.length,
    rows: byRow.size,
  };
}

/** `vf eval ENV` of a checkpoint served once, in both modes. */
async function evaluate(model: string, label: string): Promise<Record<Mode, Score>> {
  const server = await serve(model);
  const scores: Partial<Record<Mode, Score>> = {};
  try {
    for (const mode of ["sampled", "greedy"] as const) {
      const outputDir = resolve(outDir, `eval-${label}-${mode}`);
      await rm(outputDir, { recursive: true, force: true });
      const args = ["eval", values["eval-config"] ?? envId, "-m", "vf-builtin", "-b", server.url];
      if (values["eval-args"]) args.push("-a", values["eval-args"]);
      const { code } = await vf([...args, ...modeFlags(mode), "-s", "-o", outputDir, "--json"], false);
      if (code !== 0) throw new Error(`vf eval of ${label} (${mode}) exited with ${code}`);
      const evals = join(outputDir, "evals");
      const [envModel] = await readdir(evals);
      const [run] = await readdir(join(evals, envModel!));
      const text = await readFile(join(evals, envModel!, run!, "results.jsonl"), "utf8");
      scores[mode] = scoreOf(
        text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line)),
      );
    }
  } finally {
    server.child.removeAllListeners("close");
    server.child.kill("SIGINT");
  }
  return scores as Record<Mode, Score>;
}

const loadBefore = loadavg();
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
const loadAfterTraining = loadavg();
const checkpoint = await latestCheckpoint(new RunLayout(runDir));
if (!checkpoint) throw new Error(`${runDir} has no checkpoint: did vf train finish?`);
const trained = join(checkpoint.dir, "trainer");

const before = await evaluate(base, "base");
const after = await evaluate(trained, "trained");
const layout = new RunLayout(runDir);

const cell = (s: Score) => `${s.mean.toFixed(3)} [${s.low.toFixed(3)}, ${s.high.toFixed(3)}]`.padEnd(24);
const gainOf = (mode: Mode) => after[mode].mean - before[mode].mean;
const apart = (mode: Mode) => after[mode].low > before[mode].high;
const gainCell = (mode: Mode) =>
  `${gainOf(mode) >= 0 ? "+" : ""}${gainOf(mode).toFixed(3)} ${apart(mode) ? "apart" : "overlap"}`.padEnd(24);
const size = (mode: Mode) => `${before[mode].rollouts} rollouts of ${before[mode].rows} rows`;
const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(" ");
const evalArgs = values["eval-args"] ? ` -a '${values["eval-args"]}'` : "";
console.log(`
${envId}: vf eval ${values["eval-config"] ?? envId}${evalArgs}, sampled ${modeFlags("sampled").join(" ")} (${size("sampled")}), greedy ${modeFlags("greedy").join(" ")} (${size("greedy")})
           ${"sampled".padEnd(24)} greedy
  base     ${cell(before.sampled)} ${cell(before.greedy)} (${base})
  trained  ${cell(after.sampled)} ${cell(after.greedy)} (${trained}, step ${checkpoint.progress.step})
  gain     ${gainCell("sampled")} ${gainCell("greedy")}
  training ${values["skip-train"] ? "skipped (--skip-train)" : `${(trainSeconds / 60).toFixed(1)} min wall clock (vf train ${configPath})`}
  load     ${load(loadBefore)} at the start, ${load(loadAfterTraining)} after training, ${load(loadavg())} at the end (1, 5, 15 min averages)
  curve    ${existsSync(layout.curveHtml) ? layout.curveHtml : "(none)"}`);

const targets = TARGETS[envId];
if (targets) {
  const met = (ok: boolean) => (ok ? "met" : "MISSED");
  const parts = [
    `time ≤ ${targets.maxMinutes} min: ${values["skip-train"] ? "-" : met(trainSeconds <= targets.maxMinutes * 60)}`,
  ];
  if (targets.sampledGain !== undefined) {
    parts.push(
      `sampled gain ≥ ${targets.sampledGain}, apart: ${met(gainOf("sampled") >= targets.sampledGain && apart("sampled"))}`,
    );
  }
  const enough =
    before.greedy.rollouts >= targets.greedyRollouts && after.greedy.rollouts >= targets.greedyRollouts;
  if (targets.greedyGain !== undefined) {
    parts.push(
      `greedy gain ≥ ${targets.greedyGain}, apart${targets.greedyRollouts > 0 ? `, ≥ ${targets.greedyRollouts} rollouts` : ""}: ${met(gainOf("greedy") >= targets.greedyGain && apart("greedy") && enough)}`,
    );
  }
  console.log(`  targets  ${parts.join("; ")}`);
}
