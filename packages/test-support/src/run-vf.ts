/**
 * Runs this repository's real `vf` binary in a child process, as a user would, for end-to-end
 * tests of the CLI and of the bundled environments. Resolves with the exit code and everything
 * printed. The binary is found beside this package (packages/cli), not through a dependency: the
 * CLI depends on the bundled environments, so their tests depending on the CLI would be a cycle.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Path of the vf executable script. */
export const VF_BIN = fileURLToPath(new URL("../../cli/bin/vf.js", import.meta.url));

export interface RunVfOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Sent to the process's stdin, then closed. */
  input?: string;
  /** Sends SIGINT once stderr contains this text. */
  interruptWhen?: RegExp;
  /** Called with everything written to stderr so far, each time more arrives. */
  onStderr?: (stderr: string) => void;
  /** Kills the process after this many seconds; default 120. */
  timeoutSeconds?: number;
}

export interface VfResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runVf(args: string[], options: RunVfOptions = {}): Promise<VfResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VF_BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), (options.timeoutSeconds ?? 120) * 1000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(stderr);
      if (!interrupted && options.interruptWhen?.test(stderr)) {
        interrupted = true;
        child.kill("SIGINT");
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}
