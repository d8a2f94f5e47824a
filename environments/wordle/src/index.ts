/**
 * wordle: the word game over several turns. The secret is a common five-letter word from the
 * shipped list; the model guesses inside <guess> tags and gets G/Y/X feedback per letter.
 * Reward: correct_answer (1 for a win) + partial_answer (0.2 per green, 0.1 per yellow of the last
 * guess of a lost game) + length_bonus (1 / turns, for a win): from 0 to 2. Metric: format_reward.
 *
 * @example
 * const env = await loadEnvironment({ numEval: 10, maxGuesses: 6 });
 */
import { Dataset, defineEnvironment, seededShuffle, UserError } from "@vf-rl/core";
import { z } from "zod";
import { loadWordLists } from "./word-lists.ts";
import { WordleEnv } from "./wordle-env.ts";
import { rulesPrompt } from "./wordle-game.ts";
import { wordleRubric } from "./wordle-rubric.ts";

export { loadWordLists, type WordLists } from "./word-lists.ts";
export { WordleEnv, type WordleEnvOptions } from "./wordle-env.ts";
export { feedbackLines, type LetterMark, wordleFeedback } from "./wordle-feedback.ts";
export {
  extractGuess,
  type GameStatus,
  guessParser,
  judgeMove,
  type Move,
  newGame,
  playMove,
  rulesPrompt,
  type ScoredGuess,
  type TurnOutcome,
  WORD_LENGTH,
  type WordleGame,
} from "./wordle-game.ts";
export {
  correctAnswer,
  formatReward,
  lengthBonus,
  partialAnswer,
  type WordleData,
  wordleRubric,
} from "./wordle-rubric.ts";

/** The system prompt: think, then guess in tags. */
export const SYSTEM_PROMPT =
  "You are a careful game player. Read the rules of the game and always follow the required format.\n\nEach turn, think step by step, then give your guess inside <guess>...</guess> tags.";

/** Arguments of `loadEnvironment` (`-a` on the command line). */
export const WordleArgs = z
  .object({
    /** Games (secret words) for training. */
    numTrain: z.number().int().positive().default(500),
    /** Games held out for evaluation, drawn before the training ones so they never overlap. */
    numEval: z.number().int().positive().default(20),
    /** Seed of the order in which secrets are drawn. */
    seed: z.number().int().default(0),
    /** Accepted guesses per game. */
    maxGuesses: z.number().int().min(1).max(20).default(6),
  })
  .strict();
export type WordleArgs = z.infer<typeof WordleArgs>;

export const loadEnvironment = defineEnvironment({
  args: WordleArgs,
  load: async ({ numTrain, numEval, seed, maxGuesses }) => {
    const { answers, allowed } = await loadWordLists();
    if (numTrain + numEval > answers.length) {
      throw new UserError(
        `numTrain + numEval (${numTrain} + ${numEval}) is more than the ${answers.length} secret words: lower one of them`,
      );
    }
    const secrets = seededShuffle(answers, seed);
    const rows = (words: string[]) =>
      Dataset.fromRows(
        words.map((word) => ({ question: rulesPrompt(maxGuesses), answer: word })),
        { source: "wordle" },
      );
    return new WordleEnv({
      evalDataset: rows(secrets.slice(0, numEval)),
      dataset: rows(secrets.slice(numEval, numEval + numTrain)),
      systemPrompt: SYSTEM_PROMPT,
      rubric: wordleRubric(),
      maxGuesses,
      allowed,
      sampling: { max_tokens: 1024 },
      // A perfect player names the secret at once.
      referenceCompletion: (input) => [{ role: "assistant", content: `<guess>[${input.answer}]</guess>` }],
    });
  },
});
