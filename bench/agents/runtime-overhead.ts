/**
 * What a runtime costs a rollout: create it (the task's files written, the forwarder listening),
 * run one trivial program in it, close it (the folder removed), one rollout after another, and
 * the same with node as the trivial program (what an agent CLI's start pays beyond node's own), and
 * plain `spawn` of the same programs for comparison. Prints p50 and p99 per runtime, in ms. Target
 * for the local sandbox: p50 ≤ 150 ms for create + `true` + close.
 *
 *   npx tsx --conditions=vf-source bench/agents/runtime-overhead.ts [--rollouts 100] [--runtime local|subprocess|all]
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { localRuntime, subprocessRuntime } from "@vf-rl/agents";
import { AgentTask, type RuntimeFactory } from "@vf-rl/core/agents";

const { values } = parseArgs({
  options: { rollouts: { type: "string", default: "100" }, runtime: { type: "string", default: "all" } },
});
const ROLLOUTS = Number(values.rollouts);
const WARMUP = 5;

const task = AgentTask.parse({
  id: "bench",
  exampleId: 0,
  prompt: [{ role: "user", content: "fix the bug" }],
  files: {
    "README.md": "# a small repository\n",
    "src/index.ts": "export const x = 1;\n",
    "test/x.test.ts": "",
  },
  network: { allow: ["registry.npmjs.org"], block: [] },
});

/** p50 and p99 of `samples`, rounded to 0.1 ms. */
function percentiles(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p99: at(0.99) };
}

/** create + exec(argv) + close, `ROLLOUTS` times after a warm-up; the phases' times too. */
async function measure(factory: RuntimeFactory, argv: string[]) {
  const total: number[] = [];
  const create: number[] = [];
  const exec: number[] = [];
  const close: number[] = [];
  for (let i = 0; i < WARMUP + ROLLOUTS; i++) {
    const t0 = performance.now();
    const runtime = await factory.create(task, { interceptionUrl: "http://127.0.0.1:8123/v1" });
    const t1 = performance.now();
    const result = await runtime.exec(argv);
    const t2 = performance.now();
    await runtime.close();
    const t3 = performance.now();
    if (result.exitCode !== 0) throw new Error(`${argv.join(" ")} failed: ${JSON.stringify(result)}`);
    if (i < WARMUP) continue;
    total.push(t3 - t0);
    create.push(t1 - t0);
    exec.push(t2 - t1);
    close.push(t3 - t2);
  }
  return {
    total: percentiles(total),
    create: percentiles(create),
    exec: percentiles(exec),
    close: percentiles(close),
  };
}

/** The same program spawned plainly, for comparison. */
function plain(argv: string[]): { p50: number; p99: number } {
  const samples: number[] = [];
  for (let i = 0; i < ROLLOUTS; i++) {
    const t = performance.now();
    spawnSync(argv[0] as string, argv.slice(1));
    samples.push(performance.now() - t);
  }
  return percentiles(samples);
}

const TRUE = ["true"];
const NODE = ["node", "-e", "0"];
const factories: Array<[string, RuntimeFactory]> = [
  ["local", localRuntime()],
  ["subprocess", subprocessRuntime({ quiet: true })],
];
const report: Record<string, unknown> = { rollouts: ROLLOUTS };
for (const [name, factory] of factories) {
  if (values.runtime !== "all" && values.runtime !== name) continue;
  report[name] = { true: await measure(factory, TRUE), node: await measure(factory, NODE) };
}
report.plainSpawn = { true: plain(TRUE), node: plain(NODE) };
console.log(JSON.stringify(report, null, 2));
