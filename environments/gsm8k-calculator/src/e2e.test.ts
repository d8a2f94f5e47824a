// `vf eval gsm8k-calculator` end to end: the real binary, a scripted model on loopback that calls the
// tool, the package found by its bare name. Replaying the reference conversations (calculator calls,
// then the worked solution) scores 1; a model that never answers scores 0.
import { fileURLToPath } from "node:url";
import { runVf } from "@vf/cli/testing";
import { contentText, type Messages } from "@vf/core";
import {
  byPrompt,
  fixedReply,
  lastUserText,
  type ReplyFn,
  type ScriptedReply,
  startScriptedServer,
} from "@vf/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Answers each turn of each question with the reference conversation's next assistant message. */
async function referenceModel(): Promise<ReplyFn> {
  const env = await loadEnvironment({ numEval: 10 });
  const { inputs } = await env.inputs({ split: "eval" });
  const references = new Map(
    inputs.map((input) => [
      lastUserText(input.prompt),
      env.referenceCompletion(input).filter((m) => m.role === "assistant"),
    ]),
  );
  return byPrompt((messages: Messages): ScriptedReply => {
    const turn = messages.filter((m) => m.role === "assistant").length;
    const message = references.get(lastUserText(messages))?.[turn];
    if (!message) return { type: "message", content: "unknown question" };
    return {
      type: "message",
      content: message.content === null ? null : contentText(message.content),
      toolCalls: message.tool_calls?.map((c) => ({
        id: c.id,
        name: c.function.name,
        arguments: c.function.arguments,
      })),
    };
  });
}

async function evalWith(reply: ReplyFn) {
  const server = await startScriptedServer({ reply });
  try {
    const result = await runVf(
      ["eval", "gsm8k-calculator", "-m", "scripted", "-b", server.url, "-n", "5", "-r", "2", "--json"],
      { cwd: packageDir },
    );
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    return { summary: JSON.parse(result.stdout), requests: server.requests };
  } finally {
    await server.close();
  }
}

describe("vf eval gsm8k-calculator", () => {
  it("gives a model that calls the calculator and writes the reference solutions the top reward", async () => {
    const { summary, requests } = await evalWith(await referenceModel());
    expect(summary).toMatchObject({ env_id: "gsm8k-calculator", num_examples: 5, rollouts_per_example: 2 });
    expect(summary.avg_reward).toBe(1);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 1, calculate_errors: 0, num_turns: 2 });
    expect(summary.avg_metrics.calculate_calls).toBeGreaterThan(1);
    expect(summary.avg_metrics.total_tool_calls).toBe(summary.avg_metrics.calculate_calls);
    // Two model turns per rollout: the calls, then the answer.
    expect(requests).toHaveLength(20);
    expect(requests[0]!.tools?.[0]?.function.name).toBe("calculate");
  });

  it("gives a model that never answers nothing", async () => {
    const { summary } = await evalWith(fixedReply("I cannot solve this."));
    expect(summary.avg_reward).toBe(0);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 0, calculate_calls: 0, num_turns: 1 });
  });
});
