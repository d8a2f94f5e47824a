import { spawn } from "node:child_process";
import { VF_BIN } from "@vf-rl/test-support";
import { expect, test } from "vitest";

test("a reader that closes the pipe early (vf ... | head) ends vf quietly with status 0", async () => {
  const child = spawn(process.execPath, [VF_BIN, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
  // Closed before vf has started, so its first write meets a pipe with no reader.
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(stderr).not.toContain("EPIPE");
  expect(code).toBe(0);
});
