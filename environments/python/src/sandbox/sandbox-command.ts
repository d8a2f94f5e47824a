/**
 * The command that starts a sandbox, after checking that this machine can confine one: Linux on an
 * architecture the system-call filter knows, util-linux's `setpriv` and `unshare`, and the Python
 * interpreter. Anything missing is a `SandboxError` naming it and what to do; there is no
 * unconfined fallback.
 */
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { SandboxError } from "@vf-rl/core";
import type { SandboxOptions } from "./sandbox-options.ts";
import { syscallFilter } from "./syscall-filter.ts";

/** The namespaces every sandbox gets: its own users, mounts, processes, network, IPC and host name. */
export const UNSHARE_FLAGS = [
  "--user",
  "--map-root-user",
  "--mount",
  "--pid",
  "--net",
  "--ipc",
  "--uts",
  "--fork",
  "--kill-child",
];

/** The programs a sandbox is started with, all checked to exist. */
export interface SandboxCommand {
  /** Program and arguments up to (not including) the launcher's config and the worker's source. */
  argv: string[];
  /** The worker's source, passed to the launcher. */
  workerSource: string;
  /** The system-call filter the launcher installs, in hex (see syscall-filter.ts). */
  syscallFilter: string;
}

/**
 * Checks the machine and returns the command prefix. `setpriv --pdeathsig KILL` ties the sandbox to
 * the thread of vf that spawns it: when vf dies, even by SIGKILL, the kernel kills `unshare` (the
 * setting survives its exec), and `unshare --kill-child` passes the same death on to the namespace's
 * PID 1, whose end ends every process in it. When vf runs as root, setpriv also drops to
 * `sandboxUid`, because the process limit does not apply to root's own user id.
 */
export async function sandboxCommand(options: SandboxOptions): Promise<SandboxCommand> {
  if (process.platform !== "linux") {
    throw new SandboxError(
      `the Python sandbox needs Linux namespaces, and this machine runs ${process.platform}: run the python environment on Linux`,
    );
  }
  const unshare = await findProgram("unshare", options.unshare);
  if (!(await isExecutable(options.python))) {
    throw new SandboxError(
      `python3 was not found at ${options.python}: install it (apt-get install python3) or pass the interpreter's path as "python"`,
    );
  }
  const filter = syscallFilter().toString("hex");
  const setpriv = await findProgram("setpriv", options.setpriv);
  const prefix = [setpriv, "--pdeathsig", "KILL"];
  if (process.getuid?.() === 0) {
    const uid = String(options.sandboxUid);
    prefix.push(`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups");
  }
  const [launcher, workerSource] = await Promise.all([source("launcher.py"), source("worker.py")]);
  return {
    argv: [...prefix, "--", unshare, ...UNSHARE_FLAGS, options.python, "-I", "-S", "-B", "-c", launcher],
    workerSource,
    syscallFilter: filter,
  };
}

async function findProgram(name: "unshare" | "setpriv", given: string | undefined): Promise<string> {
  const hint = `install util-linux (apt-get install util-linux) or pass its path as "${name}"`;
  if (given !== undefined) {
    if (await isExecutable(given)) return given;
    throw new SandboxError(`${name} was not found at ${given}: ${hint}`);
  }
  const path = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  for (const dir of ["/usr/bin", "/bin", ...path]) {
    const candidate = join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  throw new SandboxError(`${name} was not found in /usr/bin, /bin or PATH: ${hint}`);
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function source(file: string): Promise<string> {
  return readFile(new URL(`./${file}`, import.meta.url), "utf8");
}
