/**
 * Writes an agent CLI's config files into its runtime's home (~/.codex/config.toml,
 * ~/.pi/agent/models.json), where the CLI reads them. A runtime's `writeFile` reaches only the
 * task's working folder, which the agent and the taskset's score see, so the files are written from
 * inside the runtime by a short node program, whatever the runtime's home is (a folder beside the
 * task's for the subprocess runtime, /home/agent in the local sandbox).
 */
import type { Runtime } from "@vf-rl/core/agents";
import { HarnessError } from "@vf-rl/core/errors";

/** Reads `{ relative path: text }` on stdin and writes each under $HOME, making folders. */
const WRITER = `
const fs = require("node:fs"), path = require("node:path");
const home = process.env.HOME;
if (!home) throw new Error("HOME is not set");
const files = JSON.parse(fs.readFileSync(0, "utf8"));
for (const [name, text] of Object.entries(files)) {
  const file = path.join(home, name);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, text, { mode: 0o600 });
}
`;

/** Writes `files` (paths relative to the home) in `runtime`; HarnessError when that fails. */
export async function writeHomeFiles(
  runtime: Runtime,
  files: Record<string, string>,
  harness: string,
  signal: AbortSignal,
): Promise<void> {
  const result = await runtime.exec(["node", "-e", WRITER], {
    stdin: JSON.stringify(files),
    signal,
    timeoutMs: 60_000,
  });
  if (result.exitCode !== 0) {
    signal.throwIfAborted();
    throw new HarnessError(
      `the ${harness} harness could not write its config (${Object.keys(files).join(", ")}) in the runtime's home: ${result.stderr.trim() || `exit code ${result.exitCode}`}`,
      harness,
    );
  }
}
