/**
 * Checks of the paths a user names on the command line, made before a command opens them or starts
 * any work: a named pipe would block its reader forever, a device reads without end (or, renamed
 * over as root, is replaced), a kernel file under /proc or /sys is neither data nor a place to
 * write, and a folder that cannot be written is better found before a run than after it. Each
 * failure is a `UsageError` of one line: the flag and path, what is wrong, and `fix`.
 */
import { constants as bufferConstants } from "node:buffer";
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { access, open, rm, stat, statfs } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { OutputFolderError } from "@vf-rl/core/errors";
import { UsageError } from "./cli-errors.ts";

/** How a check names the path and says what to do instead. */
export interface PathCheckOptions {
  /** The flag or argument, as the message starts: "--data", "the training config". */
  label: string;
  /** What to do instead, ending the message: "pass a JSONL file with one conversation a line". */
  fix: string;
}

/** What an input path may be: a file (the default), a folder, or either (a run folder or its file). */
export type InputKind = "file" | "folder" | "file or folder";

// File systems of the kernel's own files (statfs(2) magic numbers): /proc and /sys.
const KERNEL_FILE_SYSTEMS = new Set([0x9fa0, 0x62656572]);

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "the file system is read-only",
  ENOENT: "that file system does not allow new files there",
  ENOSPC: "the disk is full",
  ENOTDIR: "a part of the path is a file, not a folder",
  ELOOP: "its symbolic links loop",
};

// vf reads an input file whole, as one string: past this length V8 cannot hold it.
const MAX_INPUT_BYTES = bufferConstants.MAX_STRING_LENGTH;

/**
 * Checks that `path`, read as input, is a readable regular file (or folder, as `accept` says).
 * A missing path passes as "missing": the command's own reader says what belongs there.
 *
 * @example await checkInputPath(flags.data, { label: "--data", accept: "file or folder", fix: "pass a JSONL file" })
 */
export async function checkInputPath(
  path: string,
  options: PathCheckOptions & { accept?: InputKind },
): Promise<"file" | "folder" | "missing"> {
  const accept = options.accept ?? "file";
  refuseEmpty(path, options);
  const refuse = (what: string) => new UsageError(`${options.label} ${path} ${what}: ${options.fix}`);
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "ENOENT") return "missing";
    throw refuse(`cannot be read (${REASONS[code] ?? code})`);
  }
  const special = specialKind(stats) ?? (await kernelFile(path));
  if (special) throw refuse(`is ${special}, not ${accept === "folder" ? "a folder" : "a regular file"}`);
  const kind = stats.isDirectory() ? "folder" : "file";
  if (accept !== "file or folder" && kind !== accept) throw refuse(`is a ${kind}, not a ${accept}`);
  if (kind === "file" && stats.size > MAX_INPUT_BYTES) {
    throw refuse(`is ${megabytes(stats.size)}, more than vf reads at once (${megabytes(MAX_INPUT_BYTES)})`);
  }
  try {
    await access(path, constants.R_OK);
  } catch {
    throw refuse("cannot be read (permission denied)");
  }
  return kind;
}

/** Checks that `--model` (or `label`) names an existing folder, as an engine checkpoint is. */
export async function checkCheckpointFolder(path: string, label = "--model"): Promise<void> {
  const fix = "pass a checkpoint folder (config.json and model.safetensors) that vf train or vf sft wrote";
  if ((await checkInputPath(path, { label, accept: "folder", fix })) === "missing") {
    throw new UsageError(`${label} ${path} does not exist: ${fix}`);
  }
}

/**
 * Checks that a file can be written at `path` when the command ends, so a finished run is not
 * lost to a typo: its folder is made (with its parents) and takes a new file, and nothing but a
 * regular file is there already (the file is written beside and renamed over, which would replace
 * a device or a pipe).
 */
export async function checkOutputFile(path: string, options: PathCheckOptions): Promise<void> {
  refuseEmpty(path, options);
  const subject = `${options.label} ${path}`;
  const existing = await stat(path).catch(() => null);
  if (existing) {
    const special = specialKind(existing) ?? (existing.isDirectory() ? "a folder" : null);
    if (special) throw new UsageError(`${subject} is ${special}, not a file: ${options.fix}`);
  }
  await makeWritableFolder(dirname(path), subject, options.fix);
}

/**
 * Makes `dir` (and its parents) a folder that takes new files, or throws a `UsageError` saying
 * why not: a file in the way, a file system that refuses (/proc, read-only), no permission.
 */
export async function makeOutputFolder(dir: string, options: PathCheckOptions): Promise<void> {
  refuseEmpty(dir, options);
  await makeWritableFolder(dir, `${options.label} ${dir}`, options.fix);
}

/**
 * Checks, creating nothing, that `dir` can be made: it is a folder already, or the nearest part of
 * it that exists is a folder that takes new entries.
 */
export async function checkNewFolder(dir: string, options: PathCheckOptions): Promise<void> {
  refuseEmpty(dir, options);
  const subject = `${options.label} ${dir}`;
  let existing = resolve(dir);
  for (;;) {
    const stats = await stat(existing).catch(() => null);
    if (stats?.isDirectory()) break;
    if (stats) throw new UsageError(`${subject}: ${existing} is not a folder: ${options.fix}`);
    if (dirname(existing) === existing) break;
    existing = dirname(existing);
  }
  await probeWrite(existing, subject, options.fix);
}

/** An empty path would mean the current folder, or nothing at all: never what was meant. */
function refuseEmpty(path: string, options: PathCheckOptions): void {
  if (path.trim() === "")
    throw new UsageError(`${options.label} names no path (an empty string): ${options.fix}`);
}

async function makeWritableFolder(dir: string, subject: string, fix: string): Promise<void> {
  // Loaded when used: vf's commands declare their flags without loading the toolkit.
  const { makeFolder } = await import("@vf-rl/core/results");
  try {
    await makeFolder(dir);
  } catch (error) {
    if (!(error instanceof OutputFolderError)) throw error;
    throw new UsageError(`${subject}: cannot write there (${error.reason}): ${fix}`);
  }
  await probeWrite(dir, subject, fix);
}

/** Creates and removes a file in `dir`: the one test of writing there that root and /proc cannot fool. */
async function probeWrite(dir: string, subject: string, fix: string): Promise<void> {
  const probe = join(dir, `.vf-write-check-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await (await open(probe, "wx")).close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new UsageError(`${subject}: cannot write there (${dir}: ${REASONS[code] ?? code}): ${fix}`);
  }
  await rm(probe, { force: true });
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MiB`;
}

/** "a named pipe", "a device", "a socket", or null for a regular file or a folder. */
function specialKind(stats: Stats): string | null {
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return null;
}

/** "a kernel file" for a path under /proc or /sys (by file system, so links and mounts count), else null. */
async function kernelFile(path: string): Promise<string | null> {
  const fs = await statfs(path).catch(() => null);
  return fs && KERNEL_FILE_SYSTEMS.has(fs.type) ? "a kernel file (/proc or /sys)" : null;
}
