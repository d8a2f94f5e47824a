/**
 * Starts one of the engine's worker threads from its entry module. Built, the entry is a .js file
 * beside this one; run from TypeScript source (inside vf's repository), the worker first registers
 * tsx's loader (on Node 20 a worker does not inherit the loader of the thread that started it),
 * then imports the .ts entry; that works the same under `tsx`, vitest and plain node.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/** A worker running `name` (e.g. "shard-worker") from this folder, given `workerData`. */
export function startWorker(name: string, workerData: unknown): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const url = new URL(`./${name}${fromSource ? ".ts" : ".js"}`, import.meta.url);
  return fromSource
    ? new Worker(bootstrap(url), { eval: true, workerData, execArgv: [] })
    : new Worker(url, { workerData, execArgv: [] });
}

/** Worker code (CommonJS, as `eval` workers run) that registers the TypeScript loader, then imports `entry`. */
function bootstrap(entry: URL): string {
  return `import(${JSON.stringify(tsxApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

/** URL of tsx's ESM `register` API, found through its package exports (its CommonJS build fails in workers). */
function tsxApiUrl(): string {
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const exports = JSON.parse(readFileSync(manifest, "utf8")).exports as Record<
    string,
    { import: { default: string } }
  >;
  return pathToFileURL(join(dirname(manifest), exports["./esm/api"]!.import.default)).href;
}
