// The subprocess runtime keeps the Runtime contract (it confines nothing, so nothing else is tested
// of it), tells a program the folder it runs in (PWD), and warns once per factory that it isolates
// nothing.
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
