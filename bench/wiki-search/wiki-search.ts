/**
 * wiki-search through its MCP server against the same tools called in vf's own process:
 * 1. tool-call latency (p50, p99) of search_pages and read_section over the bundled stdio server,
 *    one call at a time, against calling the tool functions directly;
 * 2. rollouts per second of `evaluate` at concurrency 64 against a scripted model (in its own
 *    process) that searches, lists the sections, reads the answer's section and answers, with the
 *    tools served by the MCP server and in process;
 * and the size of the shipped data.
 *
 *   npx tsx --conditions=vf-source bench/wiki-search/wiki-search.ts [--calls 2000] [--rollouts 640]
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  loadEnvironment,
  loadPages,
  loadQuestions,
  WIKI_TOOLS,
  WikiCorpus,
  wikiServerCommand,
} from "@vf-env/wiki-search";
import { evaluate, OpenAIModelClient, ToolEnv } from "@vf-rl/core";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "2000" }, rollouts: { type: "string", default: "640" } },
});
const CALLS = Number(values.calls);
const ROLLOUTS = Number(values.rollouts);
const CONCURRENCY = 64;
const repo = join(import.meta.dirname, "..", "..");

function percentiles(ms: number[]): { p50: number; p99: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { p50: at(50), p99: at(99) };
}

const fmt = (ms: number) => `${ms < 1 ? ms.toFixed(3) : ms.toFixed(2)} ms`;

/** The arguments of each measured call: the eval questions and their answers' sections. */
function callArgs() {
  const questions = loadQuestions().filter((q) => q.split === "eval");
  const pick = Array.from({ length: CALLS }, (_, i) => questions[(i * 7919) % questions.length]!);
  return {
    search_pages: pick.map((q) => ({ query: q.question })),
    read_section: pick.map((q) => ({ section_id: q.section_id })),
  };
}

async function latencies() {
  const args = callArgs();
  const corpus = new WikiCorpus(loadPages());
  const transport = new StdioClientTransport({ ...wikiServerCommand(), stderr: "inherit" });
  const client = new Client({ name: "wiki-search bench", version: "0" });
  await client.connect(transport);
  const rows: string[] = [];
  try {
    for (const name of ["search_pages", "read_section"] as const) {
      const spec = WIKI_TOOLS.find((t) => t.name === name)!;
      const local: number[] = [];
      const remote: number[] = [];
      for (const a of args[name]) {
        let start = performance.now();
        // biome-ignore lint/suspicious/noExplicitAny: each spec's run takes its own schema's arguments
        spec.run(corpus, a as any);
        local.push(performance.now() - start);
        start = performance.now();
        const result = await client.callTool({ name, arguments: a });
        remote.push(performance.now() - start);
        if (result.isError) throw new Error(`${name} failed over MCP: ${JSON.stringify(result.content)}`);
      }
      const l = percentiles(local);
      const r = percentiles(remote);
      rows.push(
        `| ${name.padEnd(12)} | ${fmt(r.p50).padStart(9)} | ${fmt(r.p99).padStart(9)} | ${fmt(l.p50).padStart(9)} | ${fmt(l.p99).padStart(9)} |`,
      );
    }
  } finally {
    await client.close();
  }
  return rows;
}

async function startModel(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=vf-source",
      "--import",
      "tsx",
      join(import.meta.dirname, "reference-model-server.ts"),
      String(ROLLOUTS),
    ],
    { cwd: repo, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once("line", resolve),
  );
  return { url: line.trim(), stop: () => child.kill("SIGTERM") };
}

/** CPU seconds (user + system) used so far by this process's children running the wiki server. */
function serverCpuSeconds(): number {
  let ticks = 0;
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    const children = readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8")
      .split(" ")
      .filter(Boolean);
    for (const child of children) {
      if (!readFileSync(`/proc/${child}/cmdline`, "utf8").includes("wiki-server-main")) continue;
      const fields = readFileSync(`/proc/${child}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  }
  return ticks / 100;
}

async function throughput(url: string, tools: "mcp" | "in-process") {
  const env = await loadEnvironment({ numEval: ROLLOUTS, tools });
  const client = new OpenAIModelClient({ baseUrl: url, apiKey: "EMPTY", maxRetries: 0 });
  try {
    // Start the server (and build its index) first: its start-up is not in the figures.
    if (env instanceof ToolEnv) await env.listTools();
    const serverCpuBefore = tools === "mcp" ? serverCpuSeconds() : 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const result = await evaluate(env, {
      clients: client,
      model: "scripted",
      numExamples: ROLLOUTS,
      maxConcurrent: CONCURRENCY,
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const serverCpu = tools === "mcp" ? serverCpuSeconds() - serverCpuBefore : 0;
    // Three environment responses per rollout, one tool call each.
    const envMs = result.records.map((r) => (r.timing?.env_ms ?? 0) / 3);
    return {
      tools,
      perSecond: ROLLOUTS / seconds,
      seconds,
      reward: result.metadata.avg_reward,
      errors: result.records.filter((r) => r.error !== null).length,
      callMs: percentiles(envMs),
      vfCpuMsPerRollout: (cpu.user + cpu.system) / 1000 / ROLLOUTS,
      serverCpuMsPerCall: (serverCpu * 1000) / (ROLLOUTS * 3),
    };
  } finally {
    await env.teardown();
  }
}

const dataDir = join(repo, "environments", "wiki-search", "data");
const size = (name: string) => statSync(join(dataDir, name)).size;
console.log(
  `shipped data: pages.jsonl.gz ${(size("pages.jsonl.gz") / 1024).toFixed(0)} KiB, questions.jsonl.gz ${(size("questions.jsonl.gz") / 1024).toFixed(0)} KiB`,
);

console.log(`\ntool-call latency, ${CALLS} calls each, one at a time:`);
console.log("| tool         | MCP p50   | MCP p99   | local p50 | local p99 |");
console.log("| ------------ | --------- | --------- | --------- | --------- |");
for (const row of await latencies()) console.log(row);

const model = await startModel();
try {
  console.log(
    `\nevaluate, ${ROLLOUTS} rollouts (4 model turns, 3 tool calls each) at concurrency ${CONCURRENCY}:`,
  );
  console.log(
    "| tools      | rollouts/s | seconds | reward | errors | tool call p50 | tool call p99 | vf CPU/rollout | server CPU/call |",
  );
  console.log(
    "| ---------- | ---------- | ------- | ------ | ------ | ------------- | ------------- | -------------- | --------------- |",
  );
  const perSecond: Record<string, number[]> = { mcp: [], "in-process": [] };
  // The first pair warms up the process (JIT, connections) and is not reported; then three pairs,
  // alternated, since the machine's load varies from minute to minute.
  for (const [i, tools] of (
    ["mcp", "in-process", ...Array(3).fill(["mcp", "in-process"]).flat()] as const
  ).entries()) {
    const r = await throughput(model.url, tools);
    if (i < 2) continue;
    perSecond[tools]!.push(r.perSecond);
    console.log(
      `| ${tools.padEnd(10)} | ${r.perSecond.toFixed(1).padStart(10)} | ${r.seconds.toFixed(1).padStart(7)} | ${r.reward.toFixed(2).padStart(6)} | ${String(r.errors).padStart(6)} | ${fmt(r.callMs.p50).padStart(13)} | ${fmt(r.callMs.p99).padStart(13)} | ${fmt(r.vfCpuMsPerRollout).padStart(14)} | ${fmt(r.serverCpuMsPerCall).padStart(15)} |`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `median rollouts/s: mcp ${median(perSecond.mcp!).toFixed(1)}, in-process ${median(perSecond["in-process"]!).toFixed(1)}`,
  );
} finally {
  model.stop();
}
