// The subprocess runtime keeps the Runtime contract (it confines nothing, so nothing else is tested
// of it), tells a program the folder it runs in (PWD), ends what a stopped program started in
// sessions of its own, and warns once per factory that it isolates nothing.
import { readdirSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeRuntimeContract, taskWith } from "../runtime.contract.ts";
import { subprocessRuntime } from "./subprocess-runtime.ts";

describeRuntimeContract({
  name: "subprocess",
  factory: ({ tempDir, maxOutputBytes }) => subprocessRuntime({ tempDir, maxOutputBytes, quiet: true }),
});

describe("the subprocess runtime", () => {
  it("gives a program the PWD of the folder it runs in, not vf's", async () => {
    const runtime = await subprocessRuntime({ quiet: true }).create(taskWith(), {
      interceptionUrl: "http://127.0.0.1:9/v1",
    });
    try {
      const pwd = ["node", "-e", "process.stdout.write(process.env.PWD)"];
      expect((await runtime.exec(pwd)).stdout).toBe(runtime.workdir);
      await mkdir(join(runtime.workdir, "src"));
      expect((await runtime.exec(pwd, { cwd: "src" })).stdout).toBe(join(runtime.workdir, "src"));
    } finally {
      await runtime.close();
    }
  });

  it("ends what a program started in sessions of its own when the program is stopped", async () => {
    const runtime = await subprocessRuntime({ quiet: true }).create(taskWith(), {
      interceptionUrl: "http://127.0.0.1:9/v1",
    });
    // As the bash agent runs each command: in a session (and process group) of its own.
    const marker = `${process.pid}.${Date.now() % 1000}`;
    const script = `setsid sleep 61${marker} & setsid sh -c 'sleep 62${marker}' & echo started; sleep 60`;
    try {
      const abort = new AbortController();
      const running = runtime.exec(["sh", "-c", script], { signal: abort.signal });
      while (processesWith(marker).length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
      abort.abort();
      expect((await running).exitCode).toBeNull();
      expect(processesWith(marker)).toEqual([]);
    } finally {
      await runtime.close();
    }
  });

  it("warns once per factory that agents run unconfined", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const factory = subprocessRuntime();
      for (let i = 0; i < 2; i++) {
        const runtime = await factory.create(taskWith(), { interceptionUrl: "http://127.0.0.1:9/v1" });
        await runtime.close();
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([
      "the subprocess runtime isolates nothing: agents run as vf's user with its files and network; use the local runtime (or a container) for anything but debugging",
    ]);
  });
});

/** Commands of the processes whose command line holds `marker` (read from /proc). */
function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      if (command.includes(marker) && !command.includes("setsid sleep")) found.push(command);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}
