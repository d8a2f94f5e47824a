// Whole games against a scripted model on loopback, scored by the environment's rubric.
import { Dataset, evaluate, OpenAIModelClient } from "@vf-rl/core";
import { startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadWordLists } from "./word-lists.ts";
import { WordleEnv } from "./wordle-env.ts";
import { rulesPrompt } from "./wordle-game.ts";
import { wordleRubric } from "./wordle-rubric.ts";

/** Plays one game whose secret is `secret`; the model's n-th reply is `replies[n]` (the last repeats). */
async function playGame(secret: string, replies: string[]) {
  const server = await startScriptedServer({
    reply: (request) => {
      const turn = request.messages.filter((m) => m.role === "assistant").length;
      return replies[Math.min(turn, replies.length - 1)]!;
    },
  });
  try {
    const { allowed } = await loadWordLists();
    const env = new WordleEnv({
      evalDataset: Dataset.fromRows([{ question: rulesPrompt(6), answer: secret }]),
      rubric: wordleRubric(),
      maxGuesses: 6,
      allowed,
    });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const { records } = await evaluate(env, { clients: client, model: "scripted", rolloutsPerExample: 1 });
    return records[0]!;
  } finally {
    await server.close();
  }
}

describe("wordle rollouts", () => {
  it("pays 2 for naming the secret at once: the win and the whole length bonus", async () => {
    const record = await playGame("story", ["<guess>[story]</guess>"]);
    expect(record.reward).toBeCloseTo(2);
    expect(record.metrics).toMatchObject({ correct_answer: 1, partial_answer: 0, length_bonus: 1 });
    expect(record.metrics.format_reward).toBeCloseTo(1);
    expect(record.stop_condition).toBe("has_final_env_response");
  });

  it("pays 1 + 1/turns for a later win, counting an invalid move as a turn", async () => {
    const record = await playGame("story", [
      "<guess>[arise]</guess>",
      "<guess>[pliny]</guess>",
      "Thinking... <guess>sorry</guess>",
      "<guess>story</guess>",
    ]);
    expect(record.metrics.length_bonus).toBeCloseTo(1 / 4);
    expect(record.reward).toBeCloseTo(1.25);
    const feedback = record.completion.filter((m) => m.role === "user").map((m) => m.content);
    expect(feedback).toEqual([
      "A R I S E\nX Y X Y X\nYou have 5 guesses left.",
      expect.stringMatching(/"pliny" is not in the game's word list/),
      "S O R R Y\nG Y X G G\nYou have 4 guesses left.",
      "S T O R Y\nG G G G G\nCongratulations! You guessed the word in 3 guesses.",
    ]);
  });

  it("gives a lost game 0.2 per green and 0.1 per yellow of its last guess", async () => {
    const record = await playGame("story", [
      "<guess>arise</guess>",
      "<guess>crane</guess>",
      "<guess>slice</guess>",
      "<guess>shrub</guess>",
      "<guess>scorn</guess>",
      "<guess>sorry</guess>",
    ]);
    // SORRY against STORY is G Y X G G: three greens and a yellow.
    expect(record.metrics).toMatchObject({ correct_answer: 0, length_bonus: 0 });
    expect(record.metrics.partial_answer).toBeCloseTo(0.7);
    expect(record.reward).toBeCloseTo(0.7);
    expect(record.completion.at(-1)?.content).toMatch(/no guesses left\. The word was STORY\.$/);
  });

  it("ends a game of replies without guesses after two turns, with nothing earned", async () => {
    const record = await playGame("story", ["I don't know."]);
    expect(record.reward).toBe(0);
    expect(record.metrics.format_reward).toBe(0.2);
    expect(record.completion.filter((m) => m.role === "assistant")).toHaveLength(2);
  });
});
