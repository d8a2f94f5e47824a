/**
 * vf eval throughput: single-turn rollouts per second against the scripted OpenAI-compatible
 * server running in another process, at concurrency 1, 64 and 512; the latency vf adds per rollout
 * (p50, p99, from each saved row's timing) and the peak memory of the vf process.
 *
 *   npx tsx bench/cli/eval-throughput.ts            (target: ≥ 2,000 rollouts/s at concurrency 512)
 *   npx tsx bench/cli/eval-throughput.ts --env-server 2 --only 512
 *                                                   the same through vf eval --env-server -w 2
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const repo = join(import.meta.dirname, "..", "..");
const vf = join(repo, "packages", "cli", "bin", "vf.js");
const serverMain = join(repo, "packages", "core", "src", "testing", "scripted-server-main.ts");
const envDir = join(import.meta.dirname, "bench-env");
const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
if (process.argv.includes("--help")) {
  console.log(`usage: npx tsx bench/cli/eval-throughput.ts [--only 1|64|512] [--env-server N]
  --only C         only concurrency C (1: 500 rollouts, 64: 5,000, 512: 20,000); default all three
  --env-server N   the rollouts in an env server pool of N workers (vf eval --env-server -w N)
Runs this checkout's vf (packages/cli/bin/vf.js) and scripted server; to compare commits, run it
from a git worktree of each (with its own npm ci), alternating them.`);
  process.exit(0);
}
/** `--env-server N`: rollouts run in an env server pool of N workers (vf eval --env-server -w N). */
const envServerWorkers = flag("--env-server");
const only = flag("--only");
const runs: Array<{ concurrency: number; rollouts: number }> = [
  { concurrency: 1, rollouts: 500 },
  { concurrency: 64, rollouts: 5_000 },
  { concurrency: 512, rollouts: 20_000 },
].filter((run) => only === undefined || String(run.concurrency) === only);

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ["--conditions=vf-source", "--import", "tsx", serverMain, "--reply", "echo"],
    {
      cwd: repo,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const line = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  return { url: line.trim(), stop: () => child.kill("SIGTERM") };
}

/** Runs vf eval, polling the child's peak resident memory (VmHWM) while it runs. */
async function runEval(url: string, concurrency: number, rollouts: number, outputDir: string) {
  const args = [vf, "eval", envDir, "-m", "scripted", "-b", url, "-n", String(rollouts), "-r", "1"];
  args.push(
    "-c",
    String(concurrency),
    "-a",
    JSON.stringify({ rows: rollouts }),
    "-s",
    "-o",
    outputDir,
    "--json",
  );
  if (envServerWorkers) args.push("--env-server", "-w", envServerWorkers);
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  let peakKb = 0;
  const poll = setInterval(async () => {
    try {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // The process has exited between polls.
    }
  }, 20);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`vf eval failed (${code}): ${stderr}`);
  const summary = JSON.parse(stdout) as {
    time: number;
    run_dir: string;
    avg_reward: number;
    avg_error: number;
  };
  const rows = (await readFile(join(summary.run_dir, "results.jsonl"), "utf8")).trim().split("\n");
  const totals = rows.map((row) => (JSON.parse(row) as { timing: { total_ms: number } }).timing.total_ms);
  totals.sort((a, b) => a - b);
  const pct = (p: number) => totals[Math.min(totals.length - 1, Math.floor((p / 100) * totals.length))]!;
  return {
    concurrency,
    rollouts,
    seconds: summary.time,
    perSecond: rollouts / summary.time,
    processSeconds: (performance.now() - started) / 1000,
    p50: pct(50),
    p99: pct(99),
    peakMb: peakKb / 1024,
    reward: summary.avg_reward,
    errors: summary.avg_error,
  };
}

const server = await startServer();
const out = await mkdtemp(join(tmpdir(), "vf-bench-"));
try {
  console.log(
    `vf eval throughput${envServerWorkers ? ` · --env-server -w ${envServerWorkers}` : ""} · ${cpus().length} cores · ${cpus()[0]?.model ?? "cpu"} · node ${process.version}`,
  );
  console.log("concurrency  rollouts   rollouts/s   p50 added ms   p99 added ms   peak MB   reward  errors");
  for (const { concurrency, rollouts } of runs) {
    const r = await runEval(server.url, concurrency, rollouts, out);
    console.log(
      `${String(r.concurrency).padStart(11)} ${String(r.rollouts).padStart(9)} ${r.perSecond.toFixed(0).padStart(12)} ${r.p50.toFixed(2).padStart(14)} ${r.p99.toFixed(2).padStart(14)} ${r.peakMb.toFixed(0).padStart(9)} ${r.reward.toFixed(2).padStart(8)} ${r.errors.toFixed(2).padStart(7)}`,
    );
  }
  console.log(
    "(rollouts/s over evaluate's wall time; added latency = each rollout's client-side total with a 0 ms server)",
  );
} finally {
  server.stop();
  await rm(out, { recursive: true, force: true });
}
