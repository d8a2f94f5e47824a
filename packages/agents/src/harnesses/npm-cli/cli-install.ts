/**
 * Installs an agent CLI from npm at a pinned version into vf's cache, once: into
 * `<cacheDir>/<name>@<version>` (e.g. ~/.cache/vf/harnesses/claude-code@2.1.332), with the npm on
 * PATH. The install happens in a scratch folder beside it, renamed into place when npm is done, so
 * a crashed or cancelled install never leaves a half-installed CLI that looks whole; a lock folder
 * makes concurrent prepares (other rollouts, other vf processes) wait for the one that installs.
 * A machine that cannot reach the registry gets one line saying so. This is never run per rollout.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "@vf-rl/core/errors";

/** What to install and where. */
export interface CliInstallOptions {
  /** The harnesses' cache folder; the CLI goes into `<cacheDir>/<name>@<version>`. */
  cacheDir: string;
  /** The folder's name: the harness id, e.g. "claude-code". */
  name: string;
  /** The npm package, e.g. "@anthropic-ai/claude-code". */
  package: string;
  /** The exact version, e.g. "2.1.332" (no ranges: a harness's behaviour is pinned). */
  version: string;
  signal?: AbortSignal | undefined;
}

/** An npm install of an agent CLI failed; the message says why and what to do. */
export class CliInstallError extends UserError {
  constructor(
    message: string,
    readonly packageName: string,
    readonly version: string,
  ) {
    super(message);
  }
}

/** The file whose presence says the folder holds a whole install. */
const MARKER = ".vf-installed.json";
/** How often a prepare waiting on another's lock looks again, in ms. */
const POLL_MS = 250;
/** A lock folder without its holder's pid this long after it was made was left by a crash. */
const UNCLAIMED_LOCK_MS = 60_000;
/** npm's error codes that mean the registry could not be reached. */
const NETWORK_CODES = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/;

/** The folder a CLI is (or will be) installed in. */
export function cliInstallDir(options: Pick<CliInstallOptions, "cacheDir" | "name" | "version">): string {
  return join(options.cacheDir, `${options.name}@${options.version}`);
}

/** Installs the CLI unless it is already there; returns its folder. */
export async function installCli(options: CliInstallOptions): Promise<string> {
  if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(options.version)) {
    throw new UserError(
      `${options.package}'s version ${JSON.stringify(options.version)} is not an exact version: pin one, e.g. 1.2.3`,
    );
  }
  const dir = cliInstallDir(options);
  if (await installed(dir)) return dir;
  await mkdir(options.cacheDir, { recursive: true, mode: 0o755 });
  const release = await lock(`${dir}.lock`, options.signal);
  try {
    // Another prepare may have installed it while this one waited.
    if (await installed(dir)) return dir;
    const scratch = `${dir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      await mkdir(scratch, { mode: 0o755 });
      await npmInstall(scratch, options);
      await writeFile(
        join(scratch, MARKER),
        `${JSON.stringify({ package: options.package, version: options.version })}\n`,
      );
      // A folder left by an install that died before its marker is not a CLI: replace it.
      await rm(dir, { recursive: true, force: true });
      await rename(scratch, dir);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    return dir;
  } finally {
    await release();
  }
}

async function installed(dir: string): Promise<boolean> {
  return readFile(join(dir, MARKER), "utf8").then(
    () => true,
    () => false,
  );
}

/** Runs `npm install --prefix scratch package@version`; CliInstallError with npm's reason when it fails. */
function npmInstall(scratch: string, options: CliInstallOptions): Promise<void> {
  const spec = `${options.package}@${options.version}`;
  const args = ["install", "--prefix", scratch, "--no-audit", "--no-fund", "--loglevel=error", spec];
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, {
      cwd: scratch,
      env: { ...process.env, npm_config_update_notifier: "false" },
      stdio: ["ignore", "ignore", "pipe"],
      signal: options.signal,
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-20_000);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.name === "AbortError") return reject(options.signal?.reason ?? error);
      reject(
        new CliInstallError(
          error.code === "ENOENT"
            ? `cannot install ${spec}: npm is not on PATH; install Node.js with npm, or put npm on PATH`
            : `cannot install ${spec}: npm could not start (${error.message})`,
          options.package,
          options.version,
        ),
      );
    });
    child.on("close", (code) => {
      if (code === 0) return resolve();
      const network = NETWORK_CODES.exec(stderr)?.[1];
      const reason = network
        ? `the npm registry cannot be reached (${network})`
        : `npm exited with ${code}: ${npmReason(stderr)}`;
      const hint = network
        ? "connect this machine to the registry (npm config get registry), or prepare the harness once where there is one and copy the cache folder"
        : "run the same npm install by hand to see the whole error";
      reject(
        new CliInstallError(`cannot install ${spec}: ${reason}; ${hint}`, options.package, options.version),
      );
    });
  });
}

/** npm's reason: the line after its error code (npm prints the code, then what happened), else its last line. */
function npmReason(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter((line) => line !== "" && !/^(errno|syscall) /.test(line) && !line.startsWith("A complete log"));
  const code = lines.findIndex((line) => line.startsWith("code "));
  const reason = (code >= 0 ? lines[code + 1] : undefined) ?? lines.at(-1) ?? "no output";
  return reason.replace(/\.$/, "");
}

/**
 * Takes the lock folder `path` (mkdir is atomic), waiting while another live process holds it; a
 * lock whose holder died is taken over. Returns how to release it.
 */
async function lock(path: string, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  const owner = join(path, "pid");
  for (;;) {
    signal?.throwIfAborted();
    const took = await mkdir(path).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
        return false;
      },
    );
    if (took) {
      await writeFile(owner, String(process.pid));
      return () => rm(path, { recursive: true, force: true });
    }
    const holder = Number(await readFile(owner, "utf8").catch(() => ""));
    const made = await stat(path).then(
      (info) => info.mtimeMs,
      () => Date.now(),
    );
    // A holder that has just made the folder has not written its pid yet; one whose pid is gone is dead.
    const dead = holder > 0 ? !alive(holder) : Date.now() - made > UNCLAIMED_LOCK_MS;
    if (dead) {
      await rm(path, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
