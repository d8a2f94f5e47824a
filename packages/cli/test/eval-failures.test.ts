// `vf eval` when the model's endpoint fails: an error every call would repeat (here a rejected key,
// from a server whose GET /models still answers 200, so the check before the run passes) stops the
// run after the calls in flight, shows the server's own message in one line and exits 1; a run
// where every rollout failed exits 1 too; a run where only some failed is a result and exits 0.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ReplyFn, startScriptedServer } from "@vf-rl/core/testing";
import { runVf, type VfResult } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempProject, tempProject } from "./temp-project.ts";

const KEY_MESSAGE =
  "Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.";

let project: TempProject;

beforeAll(async () => {
  project = await tempProject();
  const init = await runVf(["init", "capitals"], { cwd: project.dir });
  expect(init.code).toBe(0);
}, 120_000);
afterAll(async () => {
  await project.remove();
});

/** Runs `vf eval capitals` against a scripted server answering with `reply`. */
async function evalAgainst(reply: ReplyFn, flags: string[]): Promise<VfResult & { requests: number }> {
  const server = await startScriptedServer({ reply, latencySeconds: 0.02 });
  try {
    const result = await runVf(["eval", "capitals", "-m", "gpt-4.1-mini", "-b", server.url, ...flags], {
      cwd: project.dir,
    });
    return { ...result, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

const errorLines = (result: VfResult) =>
  result.stderr.split("\n").filter((line) => line.startsWith("error:"));

describe("vf eval on a failing endpoint", { timeout: 120_000 }, () => {
  it("stops on a rejected key after at most -c requests, shows the server's message in one line, exits 1", async () => {
    const result = await evalAgainst(
      () => ({ type: "error", status: 401, message: KEY_MESSAGE, code: "invalid_api_key" }),
      ["-a", '{"numEval": 8}', "-n", "8", "-r", "3", "-c", "2", "-s", "--json"],
    );
    expect(result.code).toBe(1);
    expect(result.requests).toBeGreaterThanOrEqual(1);
    expect(result.requests).toBeLessThanOrEqual(2);
    const errors = errorLines(result);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`rejected the API key (HTTP 401: ${KEY_MESSAGE})`);
    expect(errors[0]).toMatch(
      /the run stopped early with \d+ rollouts recorded, kept in .*continue it with -R/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // Core's message names the key variable in words; vf eval adds its flag.
    expect(errors[0]).not.toMatch(/\s-k\b/);
    expect(result.stderr).toContain("\nhint: -k/--api-key-var names the variable that holds the key\n");

    const summary = JSON.parse(result.stdout);
    expect(summary.status).toBe("stopped");
    const rows = (await readFile(join(project.dir, summary.run_dir, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows.length).toBeLessThan(24);
    expect(
      rows.some(
        (row) => row.error?.error === "ApiKeyRejectedError" && row.error.message.includes(KEY_MESSAGE),
      ),
    ).toBe(true);
  });

  it("exits 1 naming the first error when every rollout failed", async () => {
    const result = await evalAgainst(
      () => ({ type: "garbage", body: "<html>oops</html>" }),
      ["-n", "2", "-r", "1", "--max-retries", "0", "--json"],
    );
    expect(result.code).toBe(1);
    expect(result.requests).toBe(2);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      status: "failed",
      avg_error: 1,
      error_counts: { InvalidModelResponseError: 2 },
    });
    const errors = errorLines(result);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /every one of the 2 rollouts failed \(2 × InvalidModelResponseError\); the first with InvalidModelResponseError: .*not valid JSON/,
    );
  });

  it("exits 0 for a run that completed with some failed rollouts", async () => {
    const result = await evalAgainst(
      (_, index) => (index === 0 ? { type: "garbage", body: "<html>oops</html>" } : "<answer>\n?\n</answer>"),
      ["-a", '{"numEval": 4}', "-n", "4", "-r", "1", "--max-retries", "0", "--json"],
    );
    expect(errorLines(result)).toEqual([]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.status).toBe("complete");
    expect(summary.error_counts).toEqual({ InvalidModelResponseError: 1 });
  });
});
