/**
 * Read load on the Hub: `npx tsx bench/hub/read-load.ts [--seconds 10] [--connections 64]`.
 *
 * `--cache-ttl-seconds 0` measures without the read cache.
 *
 * Starts a Hub on the embedded database (PGlite) in a temporary folder, pushes 50 environments with
 * 3 versions each and a report, then drives it from another process (autocannon) at 64 connections
 * on environment info (`GET /api/v1/envs/:owner/:name`) and the npm packument
 * (`GET /npm/@owner%2fname`), cycling through the environments. Prints requests/s and latency p50 and
 * p99 per route. Target on a 2-core machine: at least 1,000 req/s with p99 under 50 ms.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { HubClient } from "../../packages/hub/src/client/hub-client.ts";
import { startHub } from "../../packages/hub/src/server/start-hub.ts";
import { sampleTarball } from "../../packages/hub/src/testing/test-hub.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    // 0 turns the Hub's read cache off, to measure the database path itself.
    "cache-ttl-seconds": { type: "string", default: "5" },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ENVS = 50;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  non2xx: number;
}

const generator = fileURLToPath(new URL("./load-generator.ts", import.meta.url));

/** Runs the load generator in a child process against `paths` (round robin); returns its summary. */
async function load(url: string, paths: string[]): Promise<AutocannonResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      generator,
      "--url",
      url,
      "--paths",
      JSON.stringify(paths),
      "--connections",
      String(CONNECTIONS),
      "--seconds",
      String(SECONDS),
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as AutocannonResult;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "vf-hub-bench-"));
  const hub = await startHub({ dataDir: dir, port: 0, cacheTtlSeconds: Number(values["cache-ttl-seconds"]) });
  try {
    const client = new HubClient({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
    for (let i = 0; i < ENVS; i++) {
      for (const version of ["1.0.0", "1.1.0", "2.0.0"]) {
        await client.pushTarball(
          "admin",
          `env-${i}`,
          sampleTarball(`env-${i}`, version, { "v.txt": version }),
        );
      }
    }
    console.log(
      `hub ${hub.url} (PGlite, ${ENVS} environments x 3 versions, cache ${values["cache-ttl-seconds"]} s); ${CONNECTIONS} connections, ${SECONDS} s per route`,
    );
    const routes = [
      { name: "env info", paths: Array.from({ length: ENVS }, (_, i) => `/api/v1/envs/admin/env-${i}`) },
      { name: "npm packument", paths: Array.from({ length: ENVS }, (_, i) => `/npm/@admin%2fenv-${i}`) },
    ];
    for (const route of routes) {
      const result = await load(hub.url, route.paths);
      const ok =
        result.requests.average >= 1000 &&
        result.latency.p99 < 50 &&
        result.errors === 0 &&
        result.non2xx === 0;
      console.log(
        `${route.name.padEnd(14)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ` +
          `errors ${result.errors}  non-2xx ${result.non2xx}  ${ok ? "OK" : "BELOW TARGET"}`,
      );
    }
  } finally {
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
