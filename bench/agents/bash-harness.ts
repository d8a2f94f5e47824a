/**
 * What the bash harness costs, against the scripted server (instant answers, in this process, as
 * is the interception server). Each rollout: a task of two files; the agent (node, in the runtime)
 * asks the model, which calls bash once (`echo hello > hello.txt`), runs it, asks again and gets an
 * answer; the taskset reads hello.txt. So nearly all of a rollout's time is the harness's overhead.
 *
 * - one at a time: per rollout p50/p99 of the whole (runAgentRollout), its setup (registration and
 *   runtime start), the agent's run (node's start, two model calls through the interception server,
 *   the command), the model calls alone, scoring and teardown (runtime close);
 * - 64 at once (through AgentEnv and evaluate, as `vf eval -c 64` runs them): rollouts/s (the
 *   median of `--rounds`), each rollout's time p50/p99, and, in one more round, the peak memory of
 *   this process (RSS) and of it with all it started (PSS summed over the process tree, sampled
 *   every 100 ms).
 *
 *   npx tsx --conditions=vf-source bench/agents/bash-harness.ts [--runtime local|subprocess|all]
 *     [--sequential 50] [--concurrent 64] [--rounds 3]
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { bashHarness, localRuntime, subprocessRuntime } from "@vf-rl/agents";
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import {
  AgentEnv,
  AgentTask,
  type RuntimeFactory,
  runAgentRollout,
  startInterceptionServer,
  type Taskset,
} from "@vf-rl/core/agents";
import { type ReplyFn, startScriptedServer } from "@vf-rl/core/testing";

const { values } = parseArgs({
  options: {
    runtime: { type: "string", default: "all" },
    sequential: { type: "string", default: "50" },
    concurrent: { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
  },
});
const SEQUENTIAL = Number(values.sequential);
const CONCURRENT = Number(values.concurrent);
const ROUNDS = Number(values.rounds);
const WARMUP = 3;

const tasks = Array.from({ length: CONCURRENT }, (_, i) =>
  AgentTask.parse({
    id: `hello-${i}`,
    exampleId: i,
    prompt: [{ role: "user", content: "Write hello into hello.txt." }],
    files: { "README.md": "# a folder\n", "src/index.js": "export const x = 1;\n" },
    limits: { timeSeconds: 120, maxTurns: 5 },
  }),
);
const taskset: Taskset = {
  id: "hello",
  tasks: async () => tasks,
  score: async ({ runtime }) => ({
    reward: (await runtime.readFile("hello.txt"))?.trim() === "hello" ? 1 : 0,
    metrics: {},
  }),
};
const reply: ReplyFn = (request) =>
  request.messages.some((message) => message.role === "tool")
    ? "Done."
    : { type: "message", toolCalls: [{ name: "bash", arguments: { command: "echo hello > hello.txt" } }] };

/** p50 and p99 of `samples`, rounded to 0.1. */
function percentiles(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * Memory in MB of this process and every process it started (from /proc): each one's PSS (its
 * shared pages divided among the processes sharing them, so the sum is what they take together),
 * or its RSS where PSS cannot be read.
 */
function treeMemoryMb(): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command's closing parenthesis: state, ppid, ...
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // It ended while we looked.
    }
  }
  let kb = 0;
  for (const pid of parents.keys()) {
    let at: number | undefined = pid;
    while (at !== undefined && at > 1 && at !== process.pid) at = parents.get(at);
    if (at !== process.pid) continue;
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? /^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // Ended, or not ours to read.
    }
  }
  return kb / 1024;
}

const model = await startScriptedServer({ reply, record: false });
const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });

/** One rollout after another: each phase's p50/p99 in ms. */
async function sequential(runtimes: RuntimeFactory) {
  const server = await startInterceptionServer();
  const phases: Record<string, number[]> = {
    total: [],
    setup: [],
    agent: [],
    model: [],
    scoring: [],
    teardown: [],
  };
  try {
    for (let i = 0; i < WARMUP + SEQUENTIAL; i++) {
      const task = tasks[i % tasks.length]!;
      const t0 = performance.now();
      const done = await runAgentRollout({
        task,
        taskset,
        harness: bashHarness(),
        runtimes,
        server,
        client,
        model: "scripted",
      });
      const total = performance.now() - t0;
      if (done.score?.reward !== 1 || done.failures.length > 0) {
        throw new Error(
          `a rollout failed: ${JSON.stringify({ score: done.score, failures: String(done.failures[0]?.error) })}`,
        );
      }
      if (i < WARMUP) continue;
      const { timing } = done;
      phases.total!.push(total);
      phases.setup!.push(timing.setupMs);
      phases.agent!.push(timing.agentMs);
      phases.model!.push(timing.modelMs);
      phases.scoring!.push(timing.scoringMs);
      phases.teardown!.push(timing.teardownMs);
    }
  } finally {
    await server.close();
  }
  return Object.fromEntries(Object.entries(phases).map(([name, samples]) => [name, percentiles(samples)]));
}

/** `CONCURRENT` rollouts at once through evaluate; with `sample`, memory is sampled every 100 ms. */
async function atOnce(runtimes: RuntimeFactory, sample: boolean) {
  const env = new AgentEnv({ taskset, harness: bashHarness(), runtimes });
  let peakTree = 0;
  let peakHost = process.memoryUsage().rss;
  const sampler = sample
    ? setInterval(() => {
        peakTree = Math.max(peakTree, treeMemoryMb());
        peakHost = Math.max(peakHost, process.memoryUsage().rss);
      }, 100)
    : undefined;
  const t0 = performance.now();
  try {
    const { records } = await evaluate(env, {
      clients: client,
      model: "scripted",
      numExamples: CONCURRENT,
      maxConcurrent: CONCURRENT,
    });
    const failed = records.filter((record) => record.reward !== 1);
    if (failed.length > 0)
      throw new Error(`${failed.length} rollouts failed: ${JSON.stringify(failed[0]!.error)}`);
    return {
      seconds: (performance.now() - t0) / 1000,
      rolloutMs: records.map((record) => record.timing!.total_ms),
      peakTreeMb: Math.round(peakTree),
      peakHostRssMb: Math.round(peakHost / 1024 / 1024),
    };
  } finally {
    clearInterval(sampler);
    await env.teardown();
  }
}

/**
 * `ROUNDS` rounds of `CONCURRENT` rollouts at once for throughput (the median round), then one more
 * with memory sampled (reading every process's PSS costs CPU, so not in the timed rounds).
 */
async function concurrent(runtimes: RuntimeFactory) {
  const rates: number[] = [];
  const perRollout: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { seconds, rolloutMs } = await atOnce(runtimes, false);
    rates.push(Math.round((CONCURRENT / seconds) * 10) / 10);
    perRollout.push(...rolloutMs);
  }
  const memory = await atOnce(runtimes, true);
  return {
    rollouts: CONCURRENT,
    rolloutsPerSecond: [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)],
    rounds: rates,
    rolloutMs: percentiles(perRollout),
    peakTreeMb: memory.peakTreeMb,
    peakHostRssMb: memory.peakHostRssMb,
  };
}

const factories: Array<[string, () => RuntimeFactory]> = [
  ["local", () => localRuntime()],
  ["subprocess", () => subprocessRuntime({ quiet: true })],
];
const report: Record<string, unknown> = { sequentialRollouts: SEQUENTIAL };
try {
  for (const [name, factory] of factories) {
    if (values.runtime !== "all" && values.runtime !== name) continue;
    report[name] = { oneAtATime: await sequential(factory()), atOnce: await concurrent(factory()) };
  }
} finally {
  await client.close();
  await model.close();
}
console.log(JSON.stringify(report, null, 2));
