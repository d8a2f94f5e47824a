// The lock that gives a run folder one writer: real processes hold it, die with SIGKILL, and have
// their pid reused; files that are not a vf lock are left alone with a message saying what to do.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { RunLockedError, UserError } from "../errors.ts";
import { acquireRunLock, LOCK_FILE, LockInfo, lockOwner, UnreadableLockError } from "./run-lock.ts";

const lockModule = fileURLToPath(new URL("./run-lock.ts", import.meta.url));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Another vf process: it takes the lock of `dir` and keeps it until it is killed. */
async function lockHolder(dir: string): Promise<ChildProcess> {
  const script = join(dir, "..", `holder-${Math.random().toString(36).slice(2)}.mts`);
  await writeFile(
    script,
    `import { acquireRunLock } from ${JSON.stringify(lockModule)};
await acquireRunLock(${JSON.stringify(dir)});
process.stdout.write("locked\\n");
setInterval(() => {}, 1000);
`,
  );
  const child = spawn(process.execPath, ["--conditions=vf-source", "--import", "tsx", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the lock holder exited early with ${code}`)));
  });
  return child;
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

async function runFolder(): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), "vf-lock-")), "run");
  await mkdir(dir);
  return dir;
}

const lockIn = async (dir: string) =>
  LockInfo.parse(JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8")));

describe("acquireRunLock", () => {
  it("refuses a second writer while the first lives, and takes the lock over once it is killed", async () => {
    const dir = await runFolder();
    const holder = await lockHolder(dir);

    const refused = acquireRunLock(dir);
    await expect(refused).rejects.toThrow(RunLockedError);
    await expect(refused).rejects.toThrow(`is being written by process ${holder.pid} on`);
    expect(await lockOwner(dir)).toMatchObject({ info: { pid: holder.pid }, state: "alive" });

    await killed(holder);
    expect(await lockOwner(dir)).toMatchObject({ info: { pid: holder.pid }, state: "dead" });
    const lock = await acquireRunLock(dir);
    expect(lock.tookOver?.pid).toBe(holder.pid);
    expect((await lockIn(dir)).pid).toBe(process.pid);
    // Nothing of the takeover is left beside the lock.
    expect(await readdir(dir)).toEqual([LOCK_FILE]);
    await lock.release();
  });

  it.skipIf(process.platform !== "linux")(
    "takes over a lock whose pid now belongs to a process that started later",
    async () => {
      const dir = await runFolder();
      const holder = await lockHolder(dir);
      const stale = await lockIn(dir);
      await killed(holder);
      // The pid is handed to a new, unrelated process: alive, but not the lock's owner.
      const newcomer = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      children.push(newcomer);
      await writeFile(join(dir, LOCK_FILE), JSON.stringify({ ...stale, pid: newcomer.pid }));

      expect(await lockOwner(dir)).toMatchObject({ info: { pid: newcomer.pid }, state: "dead" });
      const lock = await acquireRunLock(dir);
      expect(lock.tookOver?.pid).toBe(newcomer.pid);
      expect(newcomer.exitCode).toBeNull(); // taking the lock over does not touch the process
      await lock.release();
    },
  );

  it.each([
    ["not JSON", "garbage\n", "it is not JSON"],
    ["empty (as a power cut can leave it)", "", "it is empty"],
    ["JSON of something else", '{"owner": "me"}', "it has no pid, host and token"],
  ])("leaves a lock file that is %s alone and says what to do", async (_, content, reason) => {
    const dir = await runFolder();
    await writeFile(join(dir, LOCK_FILE), content);
    const refused = acquireRunLock(dir);
    await expect(refused).rejects.toThrow(UnreadableLockError);
    await expect(refused).rejects.toThrow(
      `${join(dir, LOCK_FILE)} is not a lock vf can read (${reason}): if no vf process is writing this run, delete that file and try again`,
    );
    expect(await readFile(join(dir, LOCK_FILE), "utf8")).toBe(content);
    expect(await lockOwner(dir)).toBeNull();

    await rm(join(dir, LOCK_FILE));
    await (await acquireRunLock(dir)).release();
  });

  it("says so in one line when the lock file cannot be read at all", async () => {
    const dir = await runFolder();
    await mkdir(join(dir, LOCK_FILE)); // a folder in its place: reading it fails with EISDIR
    const refused = acquireRunLock(dir);
    await expect(refused).rejects.toThrow(UserError);
    await expect(refused).rejects.toThrow(/vf\.lock is not a lock vf can read \(it cannot be read: EISDIR\)/);
  });
});

describe("RunLock.release", () => {
  it("removes its own lock, once, and never a lock another writer has taken since", async () => {
    const dir = await runFolder();
    const first = await acquireRunLock(dir);
    expect(await lockOwner(dir)).toMatchObject({ info: first.info, state: "alive" });
    await first.release();
    expect(await readdir(dir)).toEqual([]);
    await first.release();

    const again = await acquireRunLock(dir);
    // Someone judged `again` stale and took over: its late release must leave the new lock be.
    await rm(again.path);
    const next = await acquireRunLock(dir);
    await again.release();
    expect((await lockIn(dir)).token).toBe(next.info.token);
    await next.release();
    expect(await readdir(dir)).toEqual([]);
  });
});
