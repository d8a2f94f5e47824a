/**
 * The command that starts a Python sandbox: the namespaces of @vf-rl/agents/sandbox (checked to be
 * possible on this machine, else a `SandboxError` naming what is missing), the launcher's library
 * with this sandbox's last stage (launcher.py here), and the worker's source.
 */
import { readFile } from "node:fs/promises";
import { launcherSource, namespaceCommand } from "@vf-rl/agents/sandbox";
import type { SandboxOptions } from "./sandbox-options.ts";

/** The programs a sandbox is started with, all checked to exist. */
export interface SandboxCommand {
  /** Program and arguments up to (not including) the launcher's config and the worker's source. */
  argv: string[];
  /** The worker's source, passed to the launcher. */
  workerSource: string;
  /** The system-call filter the launcher installs, in hex (see @vf-rl/agents/sandbox). */
  syscallFilter: string;
}

/**
 * Checks the machine and returns the command. The sandbox dies with vf however vf ends, and runs
 * as `sandboxUid` when vf runs as root (see `namespaceCommand`).
 */
export async function sandboxCommand(options: SandboxOptions): Promise<SandboxCommand> {
  const command = await namespaceCommand({ ...options, what: "the Python sandbox" });
  const [launcher, workerSource] = await Promise.all([
    source("launcher.py").then(launcherSource),
    source("worker.py"),
  ]);
  return {
    argv: [...command.argv, "-c", launcher],
    workerSource,
    syscallFilter: command.syscallFilter,
  };
}

function source(file: string): Promise<string> {
  return readFile(new URL(`./${file}`, import.meta.url), "utf8");
}
