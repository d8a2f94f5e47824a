// `vf eval` against a server that fails every request: the rollouts' retries wait side by side for
// the run, and Node must not print a listener-leak warning (MaxListenersExceededWarning) for them.
import { startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { expect, it } from "vitest";

it("vf eval prints no listener-leak warning when every rollout fails and retries", async () => {
  const server = await startScriptedServer({
    reply: () => ({ type: "error", status: 500, message: "the server is down" }),
  });
  try {
    // 40 groups of one rollout, each retried 3 times after a wait: far more than 10 wait at once.
    const flags = ["-n", "40", "-r", "1", "-c", "64", "--max-retries", "3", "-d"];
    const result = await runVf(["eval", "reverse-text", "-m", "m", "-b", server.url, ...flags], {
      timeoutSeconds: 180,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/every one of the 40 rollouts failed/);
    expect(result.stderr).not.toMatch(/MaxListenersExceededWarning/);
  } finally {
    await server.close();
  }
}, 240_000);
