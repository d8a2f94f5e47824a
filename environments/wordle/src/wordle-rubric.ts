/**
 * Wordle's reward, read from the game kept in the rollout's state (not re-parsed from the text):
 * `correct_answer` (1 for a win) + `partial_answer` (greens and yellows of the last accepted guess
 * of a lost game, up to 0.8) + `length_bonus` (1 / turns taken, for a win). A win in one guess
 * scores 2, a game with no accepted guess 0. `format_reward` is a weight-0 metric.
 */
import { type RewardContext, Rubric } from "@vf-rl/core";
import { guessParser, type WordleGame } from "./wordle-game.ts";

/** The per-rollout state of a Wordle environment. */
export interface WordleData {
  /** The game as it stands: made when the rollout begins, replaced after every move. */
  game: WordleGame;
}

type Ctx = RewardContext<WordleData>;

/** 1 when the model guessed the word, else 0. */
export function correctAnswer({ state }: Ctx): number {
  return state.data.game.status === "won" ? 1 : 0;
}

/**
 * For a game not won: 0.2 per green and 0.1 per yellow of the last accepted guess (verifiers'
 * partial credit), so at most 0.8 (four greens). 0 for a win, which `correct_answer` pays.
 */
export function partialAnswer({ state }: Ctx): number {
  const game = state.data.game;
  if (game.status === "won") return 0;
  const last = game.guesses[game.guesses.length - 1];
  if (!last) return 0;
  const count = (mark: string) => [...last.pattern].filter((m) => m === mark).length;
  return 0.2 * count("G") + 0.1 * count("Y");
}

/**
 * For a win: 1 divided by the model's turns (accepted guesses plus invalid moves), so 1 for a first
 * guess right and 1/6 for a sixth. 0 when not won.
 */
export function lengthBonus({ state }: Ctx): number {
  const game = state.data.game;
  if (game.status !== "won") return 0;
  return 1 / (game.guesses.length + game.invalidMoves);
}

/** How well the replies keep the `<guess>` format (XMLParser's format score, 0 to 1). */
export function formatReward({ completion }: Ctx): number {
  return guessParser.formatScore(completion);
}

/** The rubric: three weighted rewards and the format metric. */
export function wordleRubric(): Rubric<WordleData> {
  // A win pays correct_answer and length_bonus (2 in one guess); partial_answer only pays a loss.
  return new Rubric<WordleData>({ parser: guessParser, maxReward: 2 })
    .addReward(correctAnswer, { name: "correct_answer" })
    .addReward(partialAnswer, { name: "partial_answer" })
    .addReward(lengthBonus, { name: "length_bonus" })
    .addMetric(formatReward, { name: "format_reward" });
}
