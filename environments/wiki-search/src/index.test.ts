import { EnvArgsError } from "@vf-rl/core";
import { evaluateScripted, referenceReplies, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { loadEnvironment, type WikiInfo } from "./index.ts";

const envs: Array<{ teardown(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(envs.map((env) => env.teardown()));
});

async function load(args: Record<string, unknown>) {
  const env = await loadEnvironment(args);
  envs.push(env);
  return env;
}

describe("wiki-search", () => {
  it("asks each evaluation question with every reference answer and the answer's section in info", async () => {
    const env = await load({ numEval: 3 });
    const { inputs } = await env.inputs({ split: "eval" });
    expect(inputs).toHaveLength(3);
    const info = inputs[0]!.info as unknown as WikiInfo;
    expect(info.answers).toContain(inputs[0]!.answer);
    expect(info.section_id.startsWith(`${info.page_id}#`)).toBe(true);
    expect(inputs[0]!.prompt[0]).toMatchObject({ role: "system" });
    // Seeded order: the first rows come from several pages, and another seed gives other rows.
    const all = await load({});
    const first20 = (await all.inputs({ split: "eval", numExamples: 20 })).inputs;
    expect(new Set(first20.map((i) => i.info.page_id)).size).toBeGreaterThan(5);
    const other = await load({ numEval: 3, seed: 1 });
    expect((await other.inputs({ split: "eval" })).inputs[0]!.info.squad_id).not.toBe(info.squad_id);
  });

  it("scores the reference conversations 1 with the tools in vf's own process too", async () => {
    const env = await load({ numEval: 4, tools: "in-process" });
    const result = await evaluateScripted(env, { reply: await referenceReplies(env), numExamples: 4 });
    expect(result.metadata.avg_reward).toBe(1);
    expect(result.metadata.avg_metrics).toMatchObject({ answer_section_read: 1, read_section_calls: 1 });
  });

  it("makes a judge's verdict the reward when a judge model is given, with every reference in its prompt", async () => {
    const judge = await startScriptedServer({
      reply: (request) => (String(request.messages.at(-1)?.content).includes("xyzzy") ? "no" : "Yes."),
    });
    try {
      const env = await load({ numEval: 2, judgeModel: "judge", judgeBaseUrl: judge.url });
      const right = await evaluateScripted(env, { reply: "a right answer", numExamples: 2 });
      expect(right.metadata.avg_metrics).toMatchObject({ judge_correct: 1, f1: 0 });
      expect(right.metadata.avg_reward).toBe(1);
      const wrong = await evaluateScripted(env, { reply: "xyzzy", numExamples: 2 });
      expect(wrong.metadata.avg_reward).toBe(0);
      const { inputs } = await env.inputs({ split: "eval", numExamples: 1 });
      const answers = (inputs[0]!.info as unknown as WikiInfo).answers;
      expect(judge.requests.some((r) => String(r.messages[0]!.content).includes(answers.join(" | ")))).toBe(
        true,
      );
    } finally {
      await judge.close();
    }
  });

  it("names a bad argument and what it takes", async () => {
    await expect(loadEnvironment({ tools: "remote" })).rejects.toThrow(EnvArgsError);
    await expect(loadEnvironment({ max_turns: 3 })).rejects.toThrow(/max_turns/);
  });
});
