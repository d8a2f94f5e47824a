// The conversation, the rubric on every row and the arguments, in process; e2e.test.ts drives the vf binary.
import { contentText, evaluate, type Messages, OpenAIModelClient } from "@vf-rl/core";
import { createState } from "@vf-rl/core/rollout";
import { byPrompt, type ReplyFn, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment, SYSTEM_PROMPT } from "./index.ts";
import { expectedLists, formatList, turnNamesOf } from "./sort-task.ts";

async function evaluateWith(reply: ReplyFn, args: Record<string, unknown> = {}) {
  const server = await startScriptedServer({ reply });
  try {
    const env = await loadEnvironment(args);
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    return await evaluate(env, { clients: client, model: "scripted", numExamples: 4 });
  } finally {
    await server.close();
  }
}

/** Names a user message gives: the text after the colon. */
const namesIn = (text: string) =>
  text
    .slice(text.indexOf(":") + 1)
    .split(",")
    .map((n) => n.trim());

/** A model that keeps its own list: adds the names each user turn gives and answers sorted. */
const sortingModel: ReplyFn = byPrompt((messages: Messages) => {
  const names = messages.filter((m) => m.role === "user").flatMap((m) => namesIn(contentText(m.content)));
  return formatList([...names].sort((a, b) => a.localeCompare(b)));
});

describe("an alphabet-sort conversation", () => {
  it("gives the names over the row's turns and stops once every turn is answered", async () => {
    const result = await evaluateWith(sortingModel);
    expect(result.metadata.avg_reward).toBe(1);
    for (const record of result.records) {
      const turns = turnNamesOf(record.info);
      expect(record.stop_condition).toBe("all_turns_answered");
      expect(record.prompt).toEqual([
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: `Sort these names: ${turns[0]!.join(", ")}` },
      ]);
      const users = record.completion.filter((m) => m.role === "user").map((m) => m.content);
      expect(users).toEqual(
        turns.slice(1).map((names) => `Add these names to the list: ${names.join(", ")}`),
      );
      expect(record.completion.filter((m) => m.role === "assistant")).toHaveLength(turns.length);
      expect(record.metrics).toMatchObject({ sort_reward: 1, exact_turns: 1, num_turns: turns.length });
    }
  });

  it("gives a model that lists only the newest names part of the reward", async () => {
    const newestOnly = byPrompt((messages: Messages) => {
      const users = messages.filter((m) => m.role === "user");
      return formatList(namesIn(contentText(users.at(-1)!.content)).sort());
    });
    const result = await evaluateWith(newestOnly);
    expect(result.metadata.avg_reward).toBeGreaterThan(0.05);
    expect(result.metadata.avg_reward).toBeLessThan(0.7);
  });
});

describe("alphabet-sort rows", () => {
  it("gives every reference completion the full reward", async () => {
    const env = await loadEnvironment({});
    for (const split of ["eval", "train"] as const) {
      for (const input of (await env.inputs({ split })).inputs) {
        const state = createState<{ turns: string[][] }>(input, {
          model: "test",
          sampling: {},
          toolDefs: [],
          signal: new AbortController().signal,
          data: { turns: turnNamesOf(input.info) },
        });
        state.completion = env.referenceCompletion(input);
        const [score] = await env.rubric.compute([state]);
        expect(score!.metrics).toEqual({ sort_reward: 1, exact_turns: 1 });
      }
    }
  });

  it("draws 3-4 turns of 1-3 names by default; the answer is the final sorted list", async () => {
    const env = await loadEnvironment({});
    const { inputs } = await env.inputs({ split: "eval" });
    expect(inputs).toHaveLength(100);
    const turnCounts = new Set<number>();
    for (const input of inputs) {
      const turns = turnNamesOf(input.info);
      turnCounts.add(turns.length);
      for (const names of turns) expect(names.length).toBeGreaterThanOrEqual(1);
      for (const names of turns) expect(names.length).toBeLessThanOrEqual(3);
      expect(input.answer).toBe(expectedLists(turns).at(-1)!.join("\n"));
    }
    expect([...turnCounts].sort()).toEqual([3, 4]);
  });

  it("follows the arguments: turns, a fixed count of names, sizes and seed", async () => {
    const env = await loadEnvironment({
      minTurns: 5,
      maxTurns: 5,
      namesPerTurn: 2,
      numEval: 3,
      numTrain: 7,
      seed: 9,
    });
    const evalRows = (await env.inputs({ split: "eval" })).inputs;
    const trainRows = (await env.inputs({ split: "train" })).inputs;
    expect(evalRows).toHaveLength(3);
    expect(trainRows).toHaveLength(7);
    for (const input of [...evalRows, ...trainRows]) {
      expect(turnNamesOf(input.info).map((names) => names.length)).toEqual([2, 2, 2, 2, 2]);
    }
    const again = await loadEnvironment({ minTurns: 5, maxTurns: 5, namesPerTurn: 2, numEval: 3, seed: 9 });
    expect((await again.inputs({ split: "eval" })).inputs.map((i) => i.info)).toEqual(
      evalRows.map((i) => i.info),
    );
  });

  it("says what is wrong with bad arguments", async () => {
    await expect(loadEnvironment({ minTurns: 5, maxTurns: 3 })).rejects.toThrow(
      /minTurns: minTurns must not exceed maxTurns/,
    );
    await expect(loadEnvironment({ namesPerTurn: { min: 4, max: 2 } })).rejects.toThrow(
      /namesPerTurn.min: min must not exceed max/,
    );
    await expect(loadEnvironment({ maxTurns: 100, namesPerTurn: 5 })).rejects.toThrow(
      /up to 500 names per conversation, but the list has \d+; lower one of them/,
    );
    await expect(loadEnvironment({ power_per_turn: false })).rejects.toThrow(/power_per_turn/);
  });
});
