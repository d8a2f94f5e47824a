// The authoring guide's examples (packages/core/README.md) do what the guide says, against a
// scripted model on loopback: each environment, rubric and parser as shown there.
import { Dataset, type Rubric, type RubricGroup, SingleTurnEnv } from "@vf-rl/core";
import {
  byPrompt,
  evaluateScripted,
  lastUserText,
  type ReplyFn,
  startScriptedServer,
} from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { dataset, evalDataset } from "./datasets.ts";
import { both, calculator, guess, notebook, single } from "./environments.ts";
import { evaluateOnClaude } from "./model-clients.ts";
import * as parsers from "./parsers.ts";
import { combined, judged, math, rubric } from "./rubrics.ts";

const product = (question: string) =>
  String(
    /(\d+)\*(\d+)/
      .exec(question)!
      .slice(1)
      .reduce((a, b) => a * Number(b), 1),
  );

describe("the guide's environments", () => {
  it("SingleTurnEnv scores one reply per rollout on the eval rows", async () => {
    const result = await evaluateScripted(single, {
      reply: byPrompt((messages) => `<answer>${product(lastUserText(messages))}</answer>`),
    });
    expect(result.metadata.avg_reward).toBe(1);
  });

  it("MultiTurnEnv answers each turn until the guess is right, counting tries in state.data", async () => {
    const reply: ReplyFn = (request) =>
      request.messages.length < 4 ? "7?" : product(lastUserText(request.messages.slice(0, 1)));
    const result = await evaluateScripted(guess, { reply, rolloutsPerExample: 1 });
    expect(result.records.map((r) => r.stop_condition)).toEqual([
      "has_final_env_response",
      "has_final_env_response",
    ]);
    expect(result.metadata.avg_reward).toBe(1);
  });

  it("ToolEnv runs the model's tool calls and ends when it answers without one", async () => {
    const reply: ReplyFn = (request) => {
      const last = request.messages.at(-1)!;
      if (last.role === "tool") return `It is ${String(last.content)}.`;
      const [a, b] = /(\d+)\*(\d+)/.exec(lastUserText(request.messages))!.slice(1).map(Number);
      return { type: "message", toolCalls: [{ name: "multiply", arguments: { a, b } }] };
    };
    const result = await evaluateScripted(calculator, { reply, rolloutsPerExample: 1 });
    expect(result.metadata.avg_reward).toBe(1);
    expect(result.requests[0]!.tools!.map((t) => t.function.name)).toEqual(["multiply"]);
  });

  it("a tool reads the rollout's own resources from ctx.state, which initialData made", async () => {
    const reply: ReplyFn = (request) =>
      request.messages.at(-1)!.role === "tool"
        ? String(request.messages.at(-1)!.content)
        : { type: "message", toolCalls: [{ name: "read_note", arguments: { title: "answer" } }] };
    const result = await evaluateScripted(notebook, { reply, rolloutsPerExample: 2 });
    expect(result.metadata.avg_reward).toBe(1);
    const parameters = result.requests[0]!.tools![0]!.function.parameters as { properties: object };
    expect(Object.keys(parameters.properties)).toEqual(["title"]);
  });

  it("evaluates on a model of another API through createModelClient", async () => {
    const server = await startScriptedServer({
      reply: byPrompt((messages) => product(lastUserText(messages))),
    });
    try {
      const result = await evaluateOnClaude(server.url, "EMPTY");
      expect(result.metadata.avg_reward).toBe(1);
      expect(server.apis).toEqual(["anthropic_messages"]);
    } finally {
      await server.close();
    }
  });

  it("EnvGroup routes each row to its member by info.env_id", async () => {
    const { inputs } = await both.inputs({ split: "train" });
    expect(new Set(inputs.map((input) => input.info.env_id))).toEqual(new Set(["plain", "calculator"]));
  });
});

/** The mean reward and metrics of `scorer` on one row answered with `text`. */
async function score(scorer: Rubric | RubricGroup, answer: string, text: string) {
  const env = new SingleTurnEnv({
    evalDataset: Dataset.fromRows([{ question: "2+2?", answer }]),
    rubric: scorer,
  });
  const result = await evaluateScripted(env, { reply: text, rolloutsPerExample: 1 });
  return { reward: result.metadata.avg_reward, metrics: result.records[0]!.metrics };
}

describe("the guide's rubrics", () => {
  it("Rubric sums weighted rewards and keeps weight-0 metrics apart", async () => {
    const good = await score(rubric, "4", "<think>\ntwo and two\n</think>\n<answer>\n4\n</answer>");
    expect(good.reward).toBeCloseTo(1.2);
    expect(good.metrics.length).toBeGreaterThan(0);
  });

  it("MathRubric rewards a boxed answer equal to the row's", async () => {
    expect((await score(math, "4", "so \\boxed{4}")).reward).toBe(1);
    expect((await score(math, "4", "so 4")).reward).toBe(0);
  });

  it("RubricGroup sums its rubrics", async () => {
    const scored = await score(combined, "4", "\\boxed{4}");
    expect(scored.reward).toBe(1);
    expect(scored.metrics).toMatchObject({ correct_answer: 1, length: "\\boxed{4}".length });
  });

  it("JudgeRubric asks a judge model and scores from its verdict", async () => {
    const judge = await startScriptedServer({
      reply: byPrompt((messages) => (/Answer to grade:\nfour/.test(lastUserText(messages)) ? "Yes." : "No.")),
    });
    try {
      expect((await score(judged(judge.url), "4", "four")).reward).toBe(1);
      expect((await score(judged(judge.url), "4", "five")).reward).toBe(0);
    } finally {
      await judge.close();
    }
  });
});

describe("the guide's datasets", () => {
  it("split, concatenate and shuffle as the comments say", () => {
    expect(dataset.length).toBe(4);
    expect(evalDataset.length).toBe(2);
    // The held-out rows are not trained on: the six questions are all different.
    const questions = (d: typeof dataset) => d.examples.map((e) => e.question);
    expect(new Set([...questions(dataset), ...questions(evalDataset)]).size).toBe(6);
    expect(dataset.examples.find((e) => e.answer === "2")?.info).toEqual({ level: "easy" });
  });
});

describe("the guide's parsers", () => {
  it("return what the guide's comments say", () => {
    expect(parsers.answerTag).toBe("9");
    expect(parsers.shownFormat).toContain("<answer>");
    expect(parsers.firstNumber).toBe("42");
    expect(parsers.afterThink).toBe("42");
    expect(parsers.unfinished).toBe("");
    expect(parsers.withThinking).toBe("4");
    expect(parsers.withoutThinking).toBe("4");
  });
});
