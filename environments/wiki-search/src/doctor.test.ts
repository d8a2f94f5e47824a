// `vf doctor wiki-search` end to end: the real binary runs the first-run protocol on wiki-search's
// training rows, its bundled MCP server included, against a scripted model on loopback that
// searches, reads and answers in one rollout of each group and answers blindly in the other. The
// report sees both ends of the reward in every group. With no model named it runs on the built-in
// model, whose context holds wiki-search's first prompt.
import { fileURLToPath } from "node:url";
import { type ReplyFn, referenceReplies, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const ROWS = 3;
const ENV_ARGS = JSON.stringify({ numTrain: ROWS });

/**
 * A model that looks the answer up (the reference conversation) in the first rollout of each group
 * and answers "xyzzy" without looking in the second. Rollouts run one at a time (-c 1), so first
 * turns alternate between the two.
 */
async function halfRightModel(): Promise<ReplyFn> {
  const reference = referenceReplies(await loadEnvironment({ numTrain: ROWS }), { split: "train" });
  let firstTurns = 0;
  return async (request, index) => {
    const firstTurn = !request.messages.some((m) => m.role === "assistant");
    if (firstTurn && firstTurns++ % 2 === 1) return "xyzzy";
    return (await reference)(request, index);
  };
}

describe("vf doctor wiki-search", () => {
  it("measures a baseline through the MCP tools and sees the reward spread in every group", async () => {
    const model = await startScriptedServer({ reply: await halfRightModel() });
    try {
      const args = ["doctor", "wiki-search", "-m", "scripted", "-b", model.url, "-a", ENV_ARGS];
      const result = await runVf([...args, "-n", String(ROWS), "-r", "2", "-c", "1", "--json"], {
        cwd: packageDir,
      });
      expect(result.stderr).not.toMatch(/^error:/m);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report).toMatchObject({
        envId: "wiki-search",
        groups: ROWS,
        rollouts: 2 * ROWS,
        reward: { mean: 0.5 },
        rewardRange: [0, 1],
        binary: true,
        groupsWithSpread: 1,
        allFail: 0,
        allPass: 0,
        errored: 0,
        cancelled: false,
      });
      // The looking rollouts called the three tools of the MCP server: four model turns each.
      const toolResults = model.requests.flatMap((r) => r.messages.filter((m) => m.role === "tool"));
      expect(toolResults.length).toBeGreaterThan(0);
      expect(model.requests).toHaveLength(ROWS * (4 + 1));

      const text = await runVf([...args, "-n", "1", "-r", "2", "-c", "1"], { cwd: packageDir });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^wiki-search with scripted: 1 groups x 2 rollouts$/m);
      expect(text.stdout).toMatch(/^ {2}groups {10}100% with reward spread/m);
    } finally {
      await model.close();
    }
  }, 120_000);

  it("runs on the built-in model by default, which writes a turn in every rollout", async () => {
    const result = await runVf(["doctor", "wiki-search", "-a", ENV_ARGS, "-n", "2", "-r", "2", "--json"], {
      cwd: packageDir,
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      envId: "wiki-search",
      model: "vf-builtin",
      groups: 2,
      rollouts: 4,
      errored: 0,
    });
    // Over its context, every prompt would end its rollout before the model wrote a token.
    expect(report.completionTokensMean).toBeGreaterThan(0);
  }, 120_000);
});
