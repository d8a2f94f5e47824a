// A harness of your own runs like vf's: the one-shot harness answers coding-tasks' question task
// right (reward 1) when the model does, and the bug-fix tasks, which it cannot do, score 0.
import { fixedReply, startScriptedServer } from "@vf-rl/core/testing";
import { expect, it } from "vitest";
import { evaluateOneShot } from "./one-shot-harness.ts";

it("scores the answer the harness wrote, with the model's call in the trace", async () => {
  const model = await startScriptedServer({ reply: fixedReply("6") });
  try {
    const { records } = await evaluateOneShot(model.url);
    expect(records.map((r) => [r.task, r.reward])).toEqual([
      ["js-slugify", 0],
      ["js-load-all", 0],
      ["answer-js-logs", 1],
    ]);
    expect(records[2]!.trace!.calls).toHaveLength(1);
    expect(records[2]!.completion).toEqual([{ role: "assistant", content: "6" }]);
  } finally {
    await model.close();
  }
});
