import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeCommand } from "./node-command.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-node-command-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("nodeCommand", () => {
  it("runs a TypeScript module in a child process through tsx", async () => {
    const file = join(dir, "child.ts");
    await writeFile(file, 'const answer: number = 6 * 7;\nconsole.log("answer", answer);\n');
    const { command, args } = nodeCommand(file);
    const { stdout } = await promisify(execFile)(command, args);
    expect(stdout).toBe("answer 42\n");
  });

  it("runs a JavaScript module with node alone", () => {
    expect(nodeCommand("/srv/app/main.js")).toEqual({
      command: process.execPath,
      args: ["/srv/app/main.js"],
    });
  });
});
