// Bad input as a user types it, through the real vf binary: each mistake is one line that says what
// is wrong and what to do, a non-zero exit, and no "internal error" (and nothing spins).
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runVf } from "../src/testing/index.ts";

const REPO = resolve(import.meta.dirname, "..", "..", "..");
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-bad-input-"));
  await writeFile(join(dir, "minus-five.toml"), 'num_examples = -5\n[[eval]]\nid = "reverse-text"\n');
  // Named pipes nobody writes to: reading one blocks for ever.
  for (const name of ["fifo.toml", "fifo.jsonl"]) execFileSync("mkfifo", [join(dir, name)]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const small = ["-n", "1", "-r", "1"];

describe("bad input", () => {
  it.each([
    [["eval", "reverse-text", "-n", "-5"], 2, /^error: -n must be at least 1, or -1 for all, got "-5"$/],
    [["eval", "minus-five.toml"], 1, /num_examples: must be at least 1, or -1 for all/],
    [["eval", "reverse-text", "--timeout", "0"], 2, /^error: --timeout must be greater than 0, got "0"$/],
    [["eval", "reverse-text", "--timeout", "-1"], 2, /^error: --timeout must be greater than 0, got "-1"$/],
    [["eval", "reverse-text", "-n", "99999999999999999999"], 2, /^error: -n is too large/],
    [
      ["eval", "reverse-text", ...small, "-s", "-o", "/etc/passwd"],
      1,
      /\/etc\/passwd is a file, not a folder/,
    ],
    [["eval", "reverse-text", ...small, "-s", "-o", "/proc/vf-x"], 1, /cannot create \/proc\/vf-x/],
    [["serve", "--port", "99999"], 2, /^error: --port must be a port from 0 to 65535/],
    [
      ["train", "fifo.toml"],
      2,
      /^error: the training config fifo.toml is a named pipe, not a regular file: pass a TOML file/,
    ],
    [["train", "/dev/zero"], 2, /^error: the training config \/dev\/zero is a device, not a regular file/],
    [
      ["sft", "--data", "fifo.jsonl"],
      2,
      /^error: --data fifo.jsonl is a named pipe, not a regular file: pass a JSONL file/,
    ],
    [["sft", "--data", "/dev/zero"], 2, /^error: --data \/dev\/zero is a device, not a regular file/],
    [
      ["sft", "--env", "reverse-text", "--config", "fifo.toml"],
      2,
      /^error: --config fifo.toml is a named pipe/,
    ],
    [["sft", "--env", "reverse-text", "--eval-data", "/proc/self/status"], 2, /is a kernel file/],
    [
      ["sft", "--env", "reverse-text", "-o", "/proc/vf-x"],
      2,
      /^error: -o \/proc\/vf-x: cannot create \/proc\/vf-x/,
    ],
    [
      ["train", join(REPO, "configs/train/reverse-text.toml"), "--resume", "--output_dir", "empty-run"],
      1,
      /empty-run holds no training run, so --resume has nothing to continue: check output_dir/,
    ],
  ])("vf %j exits %i with one line", async (args, code, message) => {
    const result = await runVf(args, { cwd: dir, timeoutSeconds: 60 });
    expect(result.code).toBe(code);
    const lines = result.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("hint:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(result.stderr).not.toMatch(/internal error|ZodError|at .*\.ts:\d+/);
  });

  it("hints the flag under vf eval and the config key under vf train for one error of core", async () => {
    const unset = "VF_TEST_UNSET_KEY";
    const evaluated = await runVf(
      ["eval", "reverse-text", "-m", "m", "-b", "http://127.0.0.1:9/v1", "-k", unset],
      {
        cwd: dir,
      },
    );
    const trained = await runVf(
      [
        "train",
        join(REPO, "configs/train/reverse-text.toml"),
        ...["--output_dir", join(dir, "run"), "--inference.url", "http://127.0.0.1:9/v1"],
        ...["--inference.api_key_var", unset],
      ],
      { cwd: dir, timeoutSeconds: 60 },
    );
    const cause = `error: the API key variable ${unset} is not set: export ${unset}=..., or name the variable that holds the key`;
    expect(evaluated.stderr).toBe(`${cause}\nhint: -k/--api-key-var names the variable that holds the key\n`);
    expect(trained.stderr).toBe(
      `${cause}\nhint: api_key_var in [inference] names the variable that holds the key\n`,
    );
  }, 120_000);
});
