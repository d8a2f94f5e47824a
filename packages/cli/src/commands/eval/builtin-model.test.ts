// `vf eval` with no model: the built-in base model, served in-process on a loopback port, offline.

import { runVf } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { startBuiltinModel } from "./builtin-model.ts";

describe("the built-in model", () => {
  it("evaluates reverse-text with no model, endpoint or key given", async () => {
    const result = await runVf(["eval", "reverse-text", "-n", "6", "-r", "2", "--json"], {
      env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.model).toBe("vf-builtin");
    expect(summary.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(summary.num_examples * summary.rollouts_per_example).toBe(12);
    // the base model is weak on purpose, but it has learned the task's format
    expect(summary.avg_reward).toBeGreaterThan(0.1);
    expect(summary.avg_reward).toBeLessThan(1);
  });

  it("answers with vLLM's token fields, and closes its server", async () => {
    const builtin = await startBuiltinModel();
    const response = await builtin.clients[0]!.chat({
      model: builtin.model,
      messages: [{ role: "user", content: "Reverse: abc" }],
      sampling: { max_tokens: 16, logprobs: true },
    });
    expect(response.tokens!.completionIds.length).toBe(response.tokens!.completionLogprobs.length);
    await builtin.close();
    await expect(fetch(`${builtin.baseUrl}/models`)).rejects.toThrow();
  });
});
