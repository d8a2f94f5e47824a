// `vf eval python` end to end: the real binary against a scripted model on loopback. The perfect
// model computes each answer in the sandbox and boxes what the sandbox printed; the useless one
// answers nothing. Both ends of the reward, and the refusal on a machine that cannot confine code.

import { contentText } from "@vf-rl/core";
import { lastUserText, type ScriptedServerOptions } from "@vf-rl/core/testing";
import { evalScripted, runVf } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadProblems } from "./gsm8k-rows.ts";
import { loadEnvironment } from "./index.ts";

const N = 3;
const R = 2;

async function evalWith(server: ScriptedServerOptions) {
  return evalScripted("python", { server, flags: ["-n", `${N}`, "-r", `${R}`], timeoutSeconds: 90 });
}

describe("vf eval python", () => {
  it("scores a model that computes in the sandbox and boxes its output 1, the top of the reward", async () => {
    const answers = new Map((await loadProblems("test")).examples.map((e) => [e.question, e.answer]));
    const result = await evalWith({
      reply: (request) => {
        const last = request.messages.at(-1)!;
        if (last.role === "tool")
          return `The sandbox says ${contentText(last.content).trim()}, so the answer is \\boxed{${contentText(last.content).trim()}}.`;
        const answer = answers.get(lastUserText(request.messages));
        return {
          type: "message",
          content: null,
          toolCalls: [{ name: "python", arguments: { code: `answer = ${answer}\nprint(answer)` } }],
        };
      },
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.summary).toMatchObject({ env_id: "python", num_examples: N, rollouts_per_example: R });
    expect(result.summary.avg_reward).toBe(1);
    expect(result.summary.avg_metrics).toMatchObject({ correct_answer: 1, python_calls: 1, tool_errors: 0 });
  });

  it("scores a model that neither computes nor answers 0, the bottom of the reward", async () => {
    const result = await evalWith({ reply: () => "I don't know." });
    expect(result.code).toBe(0);
    expect(result.summary.avg_reward).toBe(0);
    expect(result.summary.avg_metrics).toMatchObject({ correct_answer: 0, python_calls: 0 });
  });

  it("finishes a run whose model's code sends SIGSTOP to its process group", async () => {
    const result = await evalScripted("python", {
      server: {
        reply: (request) =>
          request.messages.at(-1)?.role === "tool"
            ? "Stopped nothing, so the answer is \\boxed{0}."
            : {
                type: "message",
                content: null,
                toolCalls: [
                  { name: "python", arguments: { code: "import os, signal\nos.kill(0, signal.SIGSTOP)" } },
                ],
              },
      },
      flags: ["-n", "1", "-r", "1"],
      timeoutSeconds: 90,
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.summary.avg_metrics).toMatchObject({ python_calls: 1, tool_errors: 0 });
  });

  it("refuses to load where it cannot confine code, saying what is missing", async () => {
    const result = await runVf([
      "eval",
      "python",
      "-m",
      "scripted",
      "-b",
      "http://127.0.0.1:9/v1",
      "-a",
      '{"unshare": "/nonexistent/unshare"}',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: unshare was not found at \/nonexistent\/unshare: install util-linux/m,
    );
  });

  it("rejects unknown arguments with a clear message", async () => {
    await expect(loadEnvironment({ memoryMB: 256 })).rejects.toThrow(/memoryMB/);
  });
});
