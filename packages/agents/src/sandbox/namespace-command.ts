/**
 * The command that starts a sandbox's namespaces, after checking that this machine can confine one:
 * Linux on an architecture the system-call filter knows, util-linux's `setpriv` and `unshare`, and a
 * Python interpreter for the launcher (launcher.py). Anything missing is a `SandboxError` naming
 * it and what to do; there is no unconfined fallback.
 */
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { SandboxError } from "@vf-rl/core";
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

/** Where the programs a sandbox is started with are; each is found when absent. */
export interface NamespaceCommandOptions {
  /** What the sandbox is, for messages: "the Python sandbox", "the local agent runtime". */
  what: string;
  /** The Python interpreter that runs the launcher. */
  python: string;
  /** util-linux `unshare`; default: /usr/bin/unshare, /bin/unshare, or the first on PATH. */
  unshare?: string | undefined;
  /** util-linux `setpriv`; found like `unshare`. */
  setpriv?: string | undefined;
  /** The unprivileged user the sandbox runs as when vf runs as root. */
  sandboxUid: number;
  /** Let the program set its own parent-death signal; see `SyscallFilterOptions`. Default false. */
  allowParentDeathSignal?: boolean;
}

/** A checked command and the filter its launcher installs. */
export interface NamespaceCommand {
  /**
   * Program and arguments up to the launcher's source (not included): setpriv, unshare and its
   * flags, and the interpreter with its flags. Run it with `-c <source>` and the launcher's own
   * arguments.
   */
  argv: string[];
  /** The system-call filter, in hex (see syscall-filter.ts), for the launcher's config. */
  syscallFilter: string;
}

/**
 * Checks the machine and returns the command prefix. `setpriv --pdeathsig KILL` ties the sandbox to
 * the thread of vf that spawns it: when vf dies, even by SIGKILL, the kernel kills `unshare` (the
 * setting survives its exec), and `unshare --kill-child` passes the same death on to the namespace's
 * PID 1, whose end ends every process in it. When vf runs as root, setpriv also drops to
 * `sandboxUid`, because the process limit does not apply to root's own user id.
 */
export async function namespaceCommand(options: NamespaceCommandOptions): Promise<NamespaceCommand> {
  if (process.platform !== "linux") {
    throw new SandboxError(
      `${options.what} needs Linux namespaces, and this machine runs ${process.platform}: run it on Linux`,
    );
  }
  const unshare = await findProgram("unshare", options.unshare);
  if (!(await isExecutable(options.python))) {
    throw new SandboxError(
      `python3 was not found at ${options.python}: install it (apt-get install python3) or pass the interpreter's path as "python"`,
    );
  }
  const filter = syscallFilter({ allowParentDeathSignal: options.allowParentDeathSignal ?? false }).toString(
    "hex",
  );
  const setpriv = await findProgram("setpriv", options.setpriv);
  const prefix = [setpriv, "--pdeathsig", "KILL"];
  if (process.getuid?.() === 0) {
    const uid = String(options.sandboxUid);
    prefix.push(`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups");
  }
  return {
    argv: [...prefix, "--", unshare, ...UNSHARE_FLAGS, options.python, "-I", "-S", "-B"],
    syscallFilter: filter,
  };
}

/**
 * The launcher's library (launcher.py) followed by a sandbox's own last stage, as one source for
 * `python -c`.
 */
export async function launcherSource(lastStage: string): Promise<string> {
  const library = await readFile(new URL("./launcher.py", import.meta.url), "utf8");
  return `${library}\n${lastStage}`;
}

/**
 * A `SandboxError` for a sandbox that did not start, from the last line its launcher (or unshare,
 * or setpriv) printed; undefined when that line says nothing this machine could change.
 */
export function setupFailure(what: string, said: string): SandboxError | undefined {
  if (/^unshare: .*(Operation not permitted|Permission denied|No space left|Invalid argument)/.test(said)) {
    return new SandboxError(
      `${what} could not create its namespaces (${said}): this machine does not let unprivileged users create user namespaces; allow them (sysctl user.max_user_namespaces=10000, and on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0) or run on another machine`,
    );
  }
  if (/^setpriv: unrecognized option '--pdeathsig'/.test(said)) {
    return new SandboxError(
      `${what} needs setpriv --pdeathsig (util-linux 2.33 or later) to end with vf, and this one is older (${said}): upgrade util-linux or pass a newer setpriv's path as "setpriv"`,
    );
  }
  return undefined;
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

/** Whether `path` is a file this process may execute. */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
