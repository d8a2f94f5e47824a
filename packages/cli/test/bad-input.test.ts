// Bad input as a user types it, through the real vf binary: each mistake is one line that says what
// is wrong and what to do, a non-zero exit, and no "internal error" (and nothing spins).
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "..", "..", "..");
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-bad-input-"));
  await writeFile(join(dir, "minus-five.toml"), 'num_examples = -5\n[[eval]]\nid = "reverse-text"\n');
  await writeFile(join(dir, "hot.toml"), '[sampling]\ntemperature = "hot"\n[[eval]]\nid = "reverse-text"\n');
  // Named pipes nobody writes to: reading one blocks for ever.
  for (const name of ["fifo.toml", "fifo.jsonl"]) execFileSync("mkfifo", [join(dir, name)]);
  // 600 MiB of nothing (sparse): more than one string can hold.
  await writeFile(join(dir, "huge.jsonl"), "");
  await truncate(join(dir, "huge.jsonl"), 600 * 2 ** 20);
  await writeFile(
    join(dir, "bad-url.toml"),
    'model = "m"\nbase_url = "not-a-url"\n[[eval]]\nid = "reverse-text"\n',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const small = ["-n", "1", "-r", "1"];

describe("bad input", () => {
  // Each case is its own vf process that mostly starts up and exits: several at once keep both
  // cores busy instead of one process at a time (the file took five minutes run in turn).
  it.concurrent.for<[string[], number, RegExp]>([
    [["eval", "reverse-text", "-n", "-5"], 2, /^error: -n must be at least 1, or -1 for all, got "-5"$/],
    [["eval", "minus-five.toml"], 1, /num_examples: must be at least 1, or -1 for all/],
    // A sampling arg of the wrong type failed every rollout with the server's 400, one by one.
    [
      ["eval", "reverse-text", ...small, "-S", '{"temperature": "hot"}'],
      2,
      /^error: -S: temperature: .*expected number, received string: fix that key/,
    ],
    [["eval", "hot.toml", "-S", '{"max_tokens": 1.5}'], 2, /^error: -S: max_tokens: .*expected int/],
    [["serve", "--name", ""], 2, /^error: --name is empty: give the model name clients send/], // served ""
    [
      ["eval", "hot.toml", "-S", '{"max_tokens": 8}'],
      1,
      /^error: hot.toml: sampling.temperature: .*expected number/,
    ],
    [["eval", "reverse-text", "--timeout", "0"], 2, /^error: --timeout must be greater than 0, got "0"$/],
    [["eval", "reverse-text", "--timeout", "-1"], 2, /^error: --timeout must be greater than 0, got "-1"$/],
    [["eval", "reverse-text", "-n", "99999999999999999999"], 2, /^error: -n is too large/],
    // Past Node's longest timer, every rollout timed out at once and the run exited 0.
    [
      ["eval", "reverse-text", "--timeout", "1e9"],
      2,
      /^error: --timeout must be at most 2147483, got "1e9"$/,
    ],
    [
      ["eval", "reverse-text", ...small, "-s", "-o", "/etc/passwd"],
      1,
      /\/etc\/passwd is a file, not a folder/,
    ],
    [["eval", "reverse-text", ...small, "-s", "-o", "/proc/vf-x"], 1, /cannot create \/proc\/vf-x/],
    [["eval", "fifo.toml"], 2, /^error: the eval config fifo.toml is a named pipe, not a regular file/],
    [
      ["eval", "reverse-text", ...small, "--export-sft", "/proc/vf-x.jsonl"],
      2,
      /^error: --export-sft \/proc\/vf-x.jsonl: cannot write there \(\/proc: .+\): name a file/,
    ],
    [
      ["eval", "reverse-text", ...small, "--export-sft", "fifo.jsonl"],
      2,
      /fifo.jsonl is a named pipe, not a file/,
    ],
    [
      ["eval", "reverse-text", "-m", "m", "-b", "not-a-url"],
      2,
      /^error: -b must be a URL, got "not-a-url": e.g. -b http/,
    ],
    [["eval", "bad-url.toml"], 1, /base_url: must be an http:\/\/ or https:\/\/ URL/],
    [["eval", "reverse-text", "-T", "-2"], 2, /^error: -T must be at least 0, got "-2"$/],
    [["eval", ""], 2, /^error: the environment is empty: name one: an id such as reverse-text/],
    [["eval", "reverse-text", "--env-dir-path", ""], 2, /^error: --env-dir-path is empty/],
    [["eval", "reverse-text", ...small, "--export-sft", ""], 2, /^error: --export-sft is empty/],
    [
      ["eval", "reverse-text", "--env-dir-path", "/etc/passwd"],
      2,
      /^error: --env-dir-path \/etc\/passwd is a file, not a folder: name the folder/,
    ],
    [
      ["eval", "reverse-text", "-m", "/nonexistent/ckpt"],
      2,
      /^error: -m \/nonexistent\/ckpt does not exist: give the checkpoint folder/,
    ],
    [["eval", "reverse-text", "-R", "fifo.toml"], 2, /^error: -R fifo.toml is a named pipe, not a folder/],
    [
      ["eval", "reverse-text", "-m", "x", "-e", "fifo.toml"],
      2,
      /^error: -e\/--endpoints-path fifo.toml is a named pipe/,
    ],
    [
      ["eval", "reverse-text", "--env-server", "tcp://127.0.0.1:99999"],
      2,
      /^error: --env-server takes a running env server's address, tcp:\/\/HOST:PORT \(port 1 to 65535\)/,
    ],
    [["eval", "reverse-text", "--env-server", "127.0.0.1:5000"], 2, /^error: --env-server takes a running/],
    [["sft", "--env", "reverse-text", "--lr", "-1"], 2, /^error: --lr must be greater than 0, got "-1"$/],
    [["sft", "--data", "huge.jsonl"], 2, /^error: --data huge.jsonl is 600 MiB, more than vf reads at once/],
    [
      ["train", join(REPO, "configs/train/reverse-text.toml"), "--trainer-url", "ftp://x", "--dry-run"],
      2,
      /^error: --trainer-url must be an http:\/\/ or https:\/\/ URL, got "ftp:\/\/x"/,
    ],
    [["serve", "--port", "99999"], 2, /^error: --port must be a port from 0 to 65535/],
    [
      ["serve", "--model", "/nonexistent/ckpt"],
      2,
      /^error: --model \/nonexistent\/ckpt does not exist: pass a checkpoint folder/,
    ],
    [
      ["trainer", "serve", "--model", "fifo.toml"],
      2,
      /^error: --model fifo.toml is a named pipe, not a folder/,
    ],
    [
      ["hub", "serve", "--data", "/proc/self/vf-x", "--port", "0"],
      2,
      /^error: --data \/proc\/self\/vf-x: cannot write there/,
    ],
    [
      ["hub", "serve", "--data", "/dev/null", "--port", "0"],
      2,
      /^error: --data \/dev\/null: cannot write there \(\/dev\/null is a file/,
    ],
    [
      ["hub", "serve", "--data", "hub", "--database-url", "notaurl", "--port", "0"],
      2,
      /^error: --database-url is not a PostgreSQL URL: write it as postgres:\/\//,
    ],
    [
      ["hub", "serve", "--data", "hub", "--database-url", "postgres://127.0.0.1:9/vf", "--port", "0"],
      1,
      /^error: cannot open the PostgreSQL database at 127.0.0.1:9 \(.*\): check --database-url/,
    ],
    [
      ["hub", "serve", "--data", "hub", "--blob-url", "s3://x", "--port", "0"],
      2,
      /^error: --blob-url s3:\/\/x has no credentials: set AWS_ACCESS_KEY_ID/,
    ],
    [
      ["hub", "serve", "--data", "hub", "--public-url", "hub.example.com", "--port", "0"],
      2,
      /^error: --public-url must be a URL/,
    ],
    [
      ["hub", "serve", "--data", "hub", "--host", "999.1.1.1", "--port", "0"],
      1,
      /^error: cannot listen on 999.1.1.1/,
    ],
    // An empty --data meant the current folder: the Hub's database went there.
    [["hub", "serve", "--data", "", "--port", "0"], 2, /^error: --data names no path \(an empty string\)/],
    [["sft", "--env", "reverse-text", "-o", ""], 2, /^error: -o names no path \(an empty string\)/],
    [
      ["env", "pull", "-t", "/proc/vf-x", "ada/gsm8k"],
      2,
      /^error: -t \/proc\/vf-x: cannot write there \(\/proc: /,
    ],
    [["setup", "/proc/vf-x"], 2, /^error: the workspace folder \/proc\/vf-x: cannot write there/],
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
      /^error: -o \/proc\/vf-x: cannot write there \(cannot create \/proc\/vf-x/,
    ],
    [
      ["train", join(REPO, "configs/train/reverse-text.toml"), "--resume", "--output_dir", "empty-run"],
      1,
      /empty-run holds no training run, so --resume has nothing to continue: check output_dir/,
    ],
  ])("vf %j exits %i with one line", async ([args, code, message], { expect }) => {
    const result = await runVf(args, { cwd: dir, timeoutSeconds: 60 });
    expect(result.code).toBe(code);
    const lines = result.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("hint:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(result.stderr).not.toMatch(/internal error|ZodError|at .*\.ts:\d+/);
  });

  it("names OPENAI_BASE_URL when the URL it holds is not one, before any rollout", async () => {
    const result = await runVf(["eval", "reverse-text", "-m", "gpt-4.1-mini"], {
      cwd: dir,
      env: { OPENAI_BASE_URL: "api.openai.com/v1", OPENAI_API_KEY: "sk-unused" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: the model\'s base URL "api.openai.com/v1" (OPENAI_BASE_URL) is not an http:// or https:// URL: fix it, e.g. http://127.0.0.1:8000/v1\n',
    );
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
