/**
 * Measures what the sandbox costs: the time from spawn to a ready REPL (paid once per rollout, at
 * its first call) and the round trip of a call that does nothing (paid on every call).
 */
import { PythonSandbox } from "./python-sandbox.ts";
import { createSandboxFolder, removeSandboxFolder } from "./sandbox-folder.ts";
import type { SandboxOptions } from "./sandbox-options.ts";

/** Medians and 95th percentiles, in milliseconds. */
export interface Overhead {
  startMs: { median: number; p95: number };
  callMs: { median: number; p95: number };
  starts: number;
  calls: number;
}

/** Starts `starts` sandboxes one after another, and makes `calls` empty calls into the last one. */
export async function measureOverhead(
  options: SandboxOptions,
  counts: { starts: number; calls: number } = { starts: 10, calls: 200 },
): Promise<Overhead> {
  const startTimes: number[] = [];
  const callTimes: number[] = [];
  for (let i = 0; i < counts.starts; i++) {
    const folder = createSandboxFolder(options);
    try {
      const begin = performance.now();
      const sandbox = await PythonSandbox.start(folder, options);
      startTimes.push(performance.now() - begin);
      if (i === counts.starts - 1) {
        for (let c = 0; c < counts.calls; c++) {
          const at = performance.now();
          const result = await sandbox.run("pass");
          if (result.type !== "ok") throw new Error(`an empty call failed: ${JSON.stringify(result)}`);
          callTimes.push(performance.now() - at);
        }
      }
      await sandbox.close();
    } finally {
      await removeSandboxFolder(folder);
    }
  }
  return { startMs: spread(startTimes), callMs: spread(callTimes), ...counts };
}

function spread(values: number[]): { median: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100;
  return { median: at(0.5), p95: at(0.95) };
}
