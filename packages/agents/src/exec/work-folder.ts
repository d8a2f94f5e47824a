/**
 * The host's reads and writes of a runtime's working folder (a task's files before the agent
 * starts, what it left for scoring). The folder is the agent's, so it may hold symbolic links to
 * anywhere: a path is taken only relative and without `..`, a file is opened without following a
 * final link, and the file actually opened is checked to lie inside the folder before a byte is read
 * or written, so that vf (possibly root) never reads or truncates a file outside it.
 */
import { constants } from "node:fs";
import { chown, mkdir, open, readlink, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import { UserError } from "@vf-rl/core";

/** Options of the writes. */
export interface WorkFolderOptions {
  /** When vf runs as root, what it writes is handed to this user (the sandbox's). */
  ownerUid?: number | undefined;
}

/** `path` (relative, inside) joined to `root`; UserError for an absolute path or one with `..`. */
export function insidePath(root: string, path: string): string {
  const normal = normalize(path);
  if (path === "" || isAbsolute(path) || normal === ".." || normal.startsWith(`..${sep}`)) {
    throw new UserError(
      `the file path ${JSON.stringify(path)} is not inside the working folder: pass a relative path without ..`,
    );
  }
  return join(root, normal);
}

/** The file's text, or null when there is none (or it is not a file inside the folder). */
export async function readWorkFile(root: string, path: string): Promise<string | null> {
  const file = insidePath(root, path);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!(await isInside(root, file, handle.fd)) || !(await handle.stat()).isFile()) return null;
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** Writes the file, making its folders; UserError when the path leads outside the folder. */
export async function writeWorkFile(
  root: string,
  path: string,
  content: string,
  options: WorkFolderOptions = {},
): Promise<void> {
  const file = insidePath(root, path);
  await makeFolders(root, dirname(file), options.ownerUid);
  // Not truncated before the check: a link swapped in would otherwise empty the file it points to.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(file, flags, 0o644).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(
      `cannot write ${path} in the working folder (${error.code ?? error.message}): a link or folder may be in the way`,
    );
  });
  try {
    if (!(await isInside(root, file, handle.fd))) {
      throw new UserError(`cannot write ${path}: it leads outside the working folder through a link`);
    }
    if (!(await handle.stat()).isFile()) throw new UserError(`cannot write ${path}: it is not a file`);
    await handle.truncate(0);
    await handle.writeFile(content, "utf8");
    if (options.ownerUid !== undefined && process.getuid?.() === 0) {
      await handle.chown(options.ownerUid, options.ownerUid);
    }
  } finally {
    await handle.close();
  }
}

/** Writes every file of a task's `files` (relative path to text). */
export async function writeWorkFiles(
  root: string,
  files: Record<string, string>,
  options: WorkFolderOptions = {},
): Promise<void> {
  for (const [path, content] of Object.entries(files)) await writeWorkFile(root, path, content, options);
}

/** Makes `dir` and its parents below `root`, each checked to stay inside. */
async function makeFolders(root: string, dir: string, ownerUid: number | undefined): Promise<void> {
  const real = await realpath(root);
  const rel = dir.slice(root.length).split(sep).filter(Boolean);
  let current = root;
  for (const part of rel) {
    current = join(current, part);
    const made = await mkdir(current).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
        return false;
      },
    );
    const resolved = await realpath(current);
    if (resolved !== real && !resolved.startsWith(`${real}${sep}`)) {
      throw new UserError(`cannot write into ${current}: it leads outside the working folder through a link`);
    }
    if (made && ownerUid !== undefined && process.getuid?.() === 0) await chown(current, ownerUid, ownerUid);
  }
}

/**
 * Whether the open file `fd` lies inside `root`, as the kernel resolved it, links and all (where
 * there is no /proc, as `file`'s path resolves now).
 */
async function isInside(root: string, file: string, fd: number): Promise<boolean> {
  const [opened, real] = await Promise.all([
    readlink(`/proc/self/fd/${fd}`).catch(() => realpath(file)),
    realpath(root),
  ]);
  return opened.startsWith(`${real}${sep}`);
}
