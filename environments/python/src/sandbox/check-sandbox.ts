/**
 * A trial run of the sandbox: start one, run a line of code, stop it. Environments call it when they
 * load, so a machine that cannot confine code is refused before any rollout starts.
 */
import { SandboxError } from "@vf-rl/core";
import { PythonSandbox } from "./python-sandbox.ts";
import { createSandboxFolder, removeSandboxFolder } from "./sandbox-folder.ts";
import type { SandboxOptions } from "./sandbox-options.ts";

/**
 * Resolves with the trial's timings when a sandbox starts and runs code; rejects with a
 * `SandboxError` saying what is missing and what to do otherwise.
 */
export async function checkSandbox(options: SandboxOptions): Promise<{ startMs: number; callMs: number }> {
  const folder = createSandboxFolder(options);
  try {
    const start = performance.now();
    const sandbox = await PythonSandbox.start(folder, options);
    const startMs = performance.now() - start;
    try {
      const result = await sandbox.run("6 * 7");
      if (result.type !== "ok" || result.output !== "42\n") {
        throw new SandboxError(
          `the Python sandbox started but could not run code (${JSON.stringify(result)}): check the python path`,
        );
      }
      return { startMs, callMs: result.ms };
    } finally {
      await sandbox.close();
    }
  } finally {
    await removeSandboxFolder(folder);
  }
}
