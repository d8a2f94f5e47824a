// Runs the environment end to end; the model is a scripted server on loopback (no key, no network).
import { evaluateScripted, referenceReplies } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

describe("{{name}}", () => {
  it("gives the reference answers the full reward", async () => {
    const env = await loadEnvironment({ numEval: 4 });
    const result = await evaluateScripted(env, { reply: await referenceReplies(env), rolloutsPerExample: 2 });
    expect(result.records).toHaveLength(8);
    expect(result.metadata.avg_metrics.reversal).toBe(1);
    expect(result.metadata.avg_reward).toBeCloseTo(1.2);
  });

  it("gives an unformatted answer nothing", async () => {
    const env = await loadEnvironment({ numEval: 4 });
    const result = await evaluateScripted(env, { reply: "I am not sure." });
    expect(result.metadata.avg_metrics.reversal).toBe(0);
    expect(result.metadata.avg_reward).toBeLessThan(0.2);
  });

  it("rejects unknown arguments with a clear message", async () => {
    await expect(loadEnvironment({ numEvals: 3 })).rejects.toThrow(/numEvals/);
  });
});
