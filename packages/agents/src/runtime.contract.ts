/**
 * The contract every runtime keeps (core's `Runtime` and `RuntimeFactory`), as one suite each
 * runtime's test file runs: the task's files in a working folder, programs with their exit codes,
 * output, input, folder and variables, time limits, floods and cancellation stopped, file reads
 * and writes that stay inside the folder, and nothing left once `close()` resolves. What only a
 * confining runtime does (the network, the host's files) is tested beside it, in its own files.
 */
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core";
import { AgentTask, type Runtime, type RuntimeFactory } from "@vf-rl/core/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** What the suite needs of a runtime: a factory making its folders under `tempDir`. */
export interface RuntimeUnderTest {
  name: string;
  /** `maxOutputBytes` is the runtime's cap on each output stream. */
  factory(options: { tempDir: string; maxOutputBytes: number }): RuntimeFactory;
  /** Why the suite cannot run here (no container engine, ...); it runs when undefined. */
  skip?: string | undefined;
}

const FLOOD_CAP = 256 * 1024;

/** A task with `files` and a generous time limit. */
export function taskWith(files: Record<string, string> = {}, extra: Partial<AgentTask> = {}): AgentTask {
  return AgentTask.parse({
    id: "contract",
    exampleId: 0,
    prompt: [{ role: "user", content: "work on the files" }],
    files,
    limits: { timeSeconds: 60 },
    ...extra,
  });
}

/** Runs the contract against `runtime`. */
export function describeRuntimeContract(runtime: RuntimeUnderTest): void {
  const title = `the ${runtime.name} runtime keeps the Runtime contract`;
  describe.skipIf(runtime.skip !== undefined)(
    runtime.skip === undefined ? title : `${title} (skipped: ${runtime.skip})`,
    () => {
      let tempDir: string;
      let factory: RuntimeFactory;
      beforeAll(async () => {
        tempDir = await mkdtemp(join(tmpdir(), `vf-contract-${runtime.name}-`));
        // A confining runtime's sandbox runs as another user, who must be able to enter it.
        await chmod(tempDir, 0o755);
        factory = runtime.factory({ tempDir, maxOutputBytes: FLOOD_CAP });
      });
      afterAll(async () => {
        await rm(tempDir, { recursive: true, force: true });
      });

      const withRuntime = async (files: Record<string, string>, body: (rt: Runtime) => Promise<void>) => {
        const rt = await factory.create(taskWith(files), { interceptionUrl: "http://127.0.0.1:9/v1" });
        try {
          await body(rt);
        } finally {
          await rt.close();
        }
      };

      it("starts programs in a working folder that holds the task's files", async () => {
        await withRuntime({ "a.txt": "hello ", "src/b.txt": "world" }, async (rt) => {
          const result = await rt.exec(["sh", "-c", "cat a.txt src/b.txt; echo; pwd"]);
          expect(result).toEqual({
            exitCode: 0,
            stdout: `hello world\n${rt.workdir}\n`,
            stderr: "",
            timedOut: false,
          });
        });
      });

      it("passes the exit code, stdout, stderr, stdin, folder and variables", async () => {
        await withRuntime({ "sub/keep": "" }, async (rt) => {
          const result = await rt.exec(
            ["sh", "-c", 'read line; echo "out $line $GREETING $(basename $PWD)"; echo err >&2; exit 3'],
            {
              stdin: "in\n",
              env: { GREETING: "hi" },
              cwd: "sub",
            },
          );
          expect(result).toEqual({
            exitCode: 3,
            stdout: "out in hi sub\n",
            stderr: "err\n",
            timedOut: false,
          });
          const missing = await rt.exec(["no-such-program-here"]);
          expect(missing.exitCode).toBe(127);
          expect(missing.stderr).toMatch(/no-such-program-here/);
        });
      });

      it("reads and writes the working folder's files from the host", async () => {
        await withRuntime({}, async (rt) => {
          await rt.writeFile("tests/hidden.txt", "from the host");
          const seen = await rt.exec(["sh", "-c", "cat tests/hidden.txt; echo left > answer.txt"]);
          expect(seen.stdout).toBe("from the host");
          expect(await rt.readFile("answer.txt")).toBe("left\n");
          expect(await rt.readFile("nothing.txt")).toBeNull();
          await rt.writeFile("answer.txt", "rewritten");
          expect(await rt.readFile("answer.txt")).toBe("rewritten");
        });
      });

      it("never reads or writes outside the folder, even through a link the program made", async () => {
        const outside = join(tempDir, "outside.txt");
        await writeFile(outside, "the host's file");
        await withRuntime({}, async (rt) => {
          await expect(rt.readFile("../outside.txt")).rejects.toThrow(UserError);
          await expect(rt.writeFile("/etc/x", "x")).rejects.toThrow(/not inside the working folder/);
          await rt.exec(["ln", "-s", outside, "link.txt"]);
          await rt.exec(["ln", "-s", tempDir, "linked-dir"]);
          expect(await rt.readFile("link.txt")).toBeNull();
          await expect(rt.writeFile("link.txt", "overwritten")).rejects.toThrow(UserError);
          await expect(rt.writeFile("linked-dir/outside.txt", "overwritten")).rejects.toThrow(UserError);
          await expect(rt.writeFile("linked-dir/new.txt", "x")).rejects.toThrow(UserError);
        });
        expect(await readFile(outside, "utf8")).toBe("the host's file");
        expect((await readdir(tempDir)).filter((name) => name === "new.txt")).toEqual([]);
      });

      it("stops a program at its time limit, and one that floods its output", async () => {
        await withRuntime({}, async (rt) => {
          const start = Date.now();
          const slept = await rt.exec(["sh", "-c", "echo started; sleep 60"], { timeoutMs: 500 });
          expect(slept).toMatchObject({ exitCode: null, stdout: "started\n", timedOut: true });
          expect(slept.stderr).toMatch(/stopped at the time limit of 0.5 s/);
          expect(Date.now() - start).toBeLessThan(10_000);
          const flood = await rt.exec(["yes"]);
          expect(flood).toMatchObject({ exitCode: null, timedOut: false });
          expect(flood.stdout.length).toBe(FLOOD_CAP);
          expect(flood.stderr).toMatch(/its stdout passed 262144 bytes \(maxOutputBytes\)/);
        });
      });

      it("stops a program when its signal aborts", async () => {
        await withRuntime({}, async (rt) => {
          const abort = new AbortController();
          setTimeout(() => abort.abort(), 300);
          const result = await rt.exec(["sleep", "60"], { signal: abort.signal });
          expect(result).toMatchObject({ exitCode: null, timedOut: false });
          expect(result.stderr).toMatch(/cancelled/);
        });
      });

      it("ends its programs and removes its folder on close, and runs nothing after", async () => {
        const rt = await factory.create(taskWith({ "a.txt": "a" }), {
          interceptionUrl: "http://127.0.0.1:9/v1",
        });
        const running = rt.exec(["sleep", "60"]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await rt.close();
        expect((await running).exitCode).toBeNull();
        expect((await readdir(tempDir)).filter((name) => name.startsWith("vf-"))).toEqual([]);
        await expect(rt.exec(["true"])).rejects.toThrow(/closed/);
      });
    },
  );
}
