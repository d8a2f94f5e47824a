/**
 * vf's packages on a real npm registry for tests, started as the README has a user start it:
 * scripts/local-registry.mjs builds every package and publishes it to Verdaccio, on a free loopback
 * port here (`--port 0`) with its files under a temporary folder, and prints the install line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..", "..", "..");

/** A running registry. */
export interface LocalRegistry {
  /** e.g. http://127.0.0.1:40123/ */
  url: string;
  /** The install line the script printed, word by word: `npm install -D @vf-rl/cli --registry URL`. */
  installCommand: string[];
  close(): Promise<void>;
}

/** Runs scripts/local-registry.mjs with its files under `dir`, until it prints the install line. */
export async function startLocalRegistry(dir: string, env: NodeJS.ProcessEnv): Promise<LocalRegistry> {
  // node itself rather than `npm run local-registry -- ...`, so stopping it stops the registry.
  const child = spawn(
    process.execPath,
    [join(repo, "scripts", "local-registry.mjs"), "--port", "0", "--storage", dir],
    { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 600_000;
  const installLine = () => /^ {2}(npm install .*)$/m.exec(stdout)?.[1];
  while (installLine() === undefined) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop(child);
      throw new Error(`scripts/local-registry.mjs printed no install line:\n${stdout}\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const installCommand = installLine()!.split(" ");
  const url = installCommand[installCommand.indexOf("--registry") + 1] ?? "";
  return { url, installCommand, close: () => stop(child) };
}

/** Stops the script: SIGTERM, then SIGKILL if a loaded machine keeps it from exiting in 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.on("exit", done));
  child.kill("SIGTERM");
  const forced = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(forced);
}
