// `vf eval wordle` end to end: the real binary against a scripted model on loopback, once playing
// perfectly and once uselessly, so both ends of the reward are shown.
import { evalScripted } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const N = 3;
const R = 2;

async function evalWith(reply: (firstTurn: boolean) => string) {
  return evalScripted("wordle", {
    server: { reply: (request) => reply(!request.messages.some((m) => m.role === "assistant")) },
    flags: ["-n", `${N}`, "-r", `${R}`, "-c", "1"],
    timeoutSeconds: 60,
  });
}

describe("vf eval wordle", () => {
  it("scores a player who names each secret at once 2, the top of the reward", async () => {
    // The secrets, in the order vf eval plays them (no shuffle, one rollout at a time).
    const env = await loadEnvironment({});
    const secrets = (await env.dataset("eval")).examples.slice(0, N).flatMap((e) => Array(R).fill(e.answer));
    const result = await evalWith((firstTurn) => {
      if (!firstTurn) throw new Error("a perfect player needs one turn");
      return `<guess>[${secrets.shift()}]</guess>`;
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.summary).toMatchObject({ env_id: "wordle", num_examples: N, rollouts_per_example: R });
    expect(result.summary.avg_reward).toBeCloseTo(2);
    expect(result.summary.avg_metrics).toMatchObject({
      correct_answer: 1,
      length_bonus: 1,
      partial_answer: 0,
    });
    expect(secrets).toHaveLength(0);
  });

  it("scores a player who never guesses 0, the bottom of the reward", async () => {
    const result = await evalWith(() => "I have no idea.");
    expect(result.code).toBe(0);
    expect(result.summary.avg_reward).toBe(0);
    expect(result.summary.avg_metrics.correct_answer).toBe(0);
  });

  it("rejects unknown arguments and impossible sizes with a clear message", async () => {
    await expect(loadEnvironment({ maxGuess: 3 })).rejects.toThrow(/maxGuess/);
    await expect(loadEnvironment({ numTrain: 5000 })).rejects.toThrow(/more than the 877 secret words/);
  });
});
