/**
 * Sampling throughput of `vf serve`, measured from another process as a client sees it: the server
 * runs in a child process (the real `vf serve` command), and this process sends chat requests over
 * HTTP, first one at a time (one stream), then 64 at once. Each request generates exactly
 * `--tokens` tokens (ignore_eos), so the figures do not depend on what the model says. Not a test.
 *
 *   npx tsx bench/engine/serve-throughput.ts [--model DIR] [--tokens 128] [--concurrency 64] [--threads auto]
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { BASE_MODEL_DIR } from "@vf-rl/engine";
import { VF_BIN } from "@vf-rl/test-support";

const { values } = parseArgs({
  options: {
    model: { type: "string", default: BASE_MODEL_DIR },
    tokens: { type: "string", default: "128" },
    concurrency: { type: "string", default: "64" },
    threads: { type: "string", default: "auto" },
  },
});
const maxTokens = Number(values.tokens);
const concurrency = Number(values.concurrency);

const serveArgs = ["serve", "--model", values.model, "--port", "0", "--threads", values.threads];
const server = spawn(process.execPath, [VF_BIN, ...serveArgs], {
  stdio: ["ignore", "pipe", "inherit"],
});
let printed = "";
const url = await new Promise<string>((resolve, reject) => {
  server.stdout.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
    const found = /http:\/\/\S+\/v1/.exec(printed)?.[0];
    if (found) resolve(found);
  });
  server.on("exit", (code) => reject(new Error(`vf serve exited with ${code}`)));
});

let seed = 0;
/** One chat request; resolves with the number of tokens generated. */
async function request(): Promise<number> {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "vf-builtin",
      messages: [{ role: "user", content: "Reverse this text: the quick brown fox" }],
      max_tokens: maxTokens,
      ignore_eos: true,
      seed: seed++,
    }),
  });
  const body = (await response.json()) as { usage: { completion_tokens: number } };
  return body.usage.completion_tokens;
}

/**
 * CPU time the server process has used so far, all its threads, in microseconds (Linux's
 * /proc/PID/task/TID/schedstat; null elsewhere). Less disturbed by other processes than wall time.
 */
function serverCpuMicros(): number | null {
  try {
    const tasks = readdirSync(`/proc/${server.pid}/task`);
    let ns = 0;
    for (const tid of tasks) {
      ns += Number(readFileSync(`/proc/${server.pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    }
    return ns / 1000;
  } catch {
    return null;
  }
}

interface Measured {
  tokensPerSecond: number;
  /** The server's CPU time per token, in microseconds (null where it cannot be read). */
  cpuMicrosPerToken: number | null;
}

/** Tokens per second over `rounds` rounds of `parallel` requests sent together. */
async function measure(parallel: number, rounds: number): Promise<Measured> {
  const cpuBefore = serverCpuMicros();
  const started = performance.now();
  let tokens = 0;
  for (let r = 0; r < rounds; r++) {
    const counts = await Promise.all(Array.from({ length: parallel }, () => request()));
    tokens += counts.reduce((a, b) => a + b, 0);
  }
  const tokensPerSecond = tokens / ((performance.now() - started) / 1000);
  const cpuAfter = serverCpuMicros();
  const cpu = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / tokens;
  return { tokensPerSecond, cpuMicrosPerToken: cpu };
}

/** The faster of two runs. */
function best(a: Measured, b: Measured): Measured {
  return a.tokensPerSecond >= b.tokensPerSecond ? a : b;
}

/** " (server CPU 41.2 µs a token)", or nothing where it cannot be read. */
function cpuNote(m: Measured): string {
  return m.cpuMicrosPerToken === null ? "" : `, server CPU ${m.cpuMicrosPerToken.toFixed(1)} µs a token`;
}

try {
  // Warm up both processes' JIT and, with threads, the worker's start (its copy of the weights and
  // its WebAssembly): until that is done it shares the cores with the single stream measured next,
  // which made one stream look up to a third slower and the speed-up larger than it is.
  await measure(8, 2);
  await measure(concurrency, 1);
  await measure(1, 20);
  const single = best(await measure(1, 10), await measure(1, 10));
  const many = best(await measure(concurrency, 2), await measure(concurrency, 2));
  console.log(
    `vf serve --model ${values.model} --threads ${values.threads}: ${maxTokens} new tokens per request, client in another process`,
  );
  console.log(
    `1 stream        ${single.tokensPerSecond.toFixed(0)} tokens/s (best of 2 runs of 10 requests${cpuNote(single)})`,
  );
  console.log(
    `${concurrency} concurrent   ${many.tokensPerSecond.toFixed(0)} tokens/s (best of 2 runs of 2 x ${concurrency} requests${cpuNote(many)})`,
  );
  console.log(`speed-up        ${(many.tokensPerSecond / single.tokensPerSecond).toFixed(2)}x`);
} finally {
  server.kill("SIGINT");
}
