// The local sandbox runtime: the Runtime contract, and what agents need of it (node and a CLI's
// package, an ordinary user, a home and /tmp of its own). What it keeps out is in
// hostile-programs.test.ts and local-network.test.ts; how long it lives, in local-lifetime.test.ts.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRuntimeContract, taskWith } from "../runtime.contract.ts";
import { localRuntime } from "./local-runtime.ts";
import { scratchFolder } from "./test-support.ts";

describeRuntimeContract({
  name: "local",
  factory: ({ tempDir, maxOutputBytes }) => localRuntime({ tempDir, maxOutputBytes, sandboxUid: 64101 }),
});

describe("the local runtime runs agent CLIs", () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let cli: string;
  beforeAll(async () => {
    scratch = await scratchFolder("local-cli");
    // A stand-in for an agent CLI's installed package: a bin that reads its own package.json.
    cli = join(scratch.path, "node_modules", "fake-agent");
    await mkdir(cli, { recursive: true });
    await writeFile(join(cli, "package.json"), JSON.stringify({ name: "fake-agent", version: "1.2.3" }));
    await writeFile(
      join(cli, "cli.js"),
      [
        "const { version } = require('./package.json');",
        "const user = require('os').userInfo().username;",
        "require('fs').writeFileSync('answer.txt', 'agent ' + version + ' as ' + user);",
        "console.log(process.env.HOME, process.cwd());",
      ].join("\n"),
    );
  });
  afterAll(() => scratch.remove());

  it("runs node and a CLI's package shown read-only, as an ordinary user with a home of its own", async () => {
    const factory = localRuntime({ tempDir: scratch.path, readOnlyPaths: [cli], sandboxUid: 64101 });
    const runtime = await factory.create(taskWith({ "task.md": "write answer.txt" }), {
      interceptionUrl: "http://127.0.0.1:9/v1",
    });
    try {
      expect(runtime.workdir).toBe("/workspace");
      const ran = await runtime.exec(["node", join(cli, "cli.js")]);
      expect(ran).toEqual({ exitCode: 0, stdout: "/home/agent /workspace\n", stderr: "", timedOut: false });
      expect(await runtime.readFile("answer.txt")).toBe("agent 1.2.3 as agent");
      const id = await runtime.exec(["id", "-u"]);
      expect(id.stdout).toBe("1000\n");
      const tamper = await runtime.exec(["sh", "-c", `echo x > ${join(cli, "cli.js")}`]);
      expect(tamper.exitCode).not.toBe(0);
      expect(tamper.stderr).toMatch(/Read-only file system/);
      const home = await runtime.exec([
        "sh",
        "-c",
        "echo kept > ~/.config && echo tmp > /tmp/t && cat ~/.config /tmp/t && ls -A",
      ]);
      expect(home.stdout).toBe("kept\ntmp\nanswer.txt\ntask.md\n");
    } finally {
      await runtime.close();
    }
  });
});
