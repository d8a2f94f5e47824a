// The guide's interception-server example does what the guide says, against a scripted model.
import { fixedReply, startScriptedServer } from "@vf-rl/core/testing";
import { expect, it } from "vitest";
import { traceAnAgent } from "./interception.ts";

it("traces an agent's call through the interception server, with the model's token ids", async () => {
  const model = await startScriptedServer({ reply: fixedReply("4"), tokens: true });
  try {
    const trace = await traceAnAgent(model.url);
    expect(trace.stop).toBe("agent_completed");
    expect(trace.calls).toHaveLength(1);
    expect(trace.calls[0]).toMatchObject({ reply: { content: "4" }, sampling: { temperature: 1 } });
    expect(trace.calls[0]!.tokens!.completionIds.length).toBeGreaterThan(0);
    expect(model.bodies[0]).toMatchObject({ model: "Qwen/Qwen3-0.6B", max_tokens: 8192 });
  } finally {
    await model.close();
  }
});
