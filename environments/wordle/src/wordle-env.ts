/**
 * Wordle as a multi-turn environment: the row's answer is the secret, each model turn is judged as
 * a move, and the game's answer (feedback, an invalid-move notice, or the end) is the next user
 * message. The game lives in `state.data.game`, one per rollout.
 */
import {
  type EnvironmentOptions,
  type EnvResponse,
  lastAssistantText,
  type Messages,
  MultiTurnEnv,
  type RolloutState,
} from "@vf-rl/core";
import { judgeMove, newGame, playMove } from "./wordle-game.ts";
import type { WordleData } from "./wordle-rubric.ts";

export interface WordleEnvOptions extends EnvironmentOptions<WordleData> {
  /** Accepted guesses per game. */
  maxGuesses: number;
  /** Words accepted as guesses. */
  allowed: ReadonlySet<string>;
}

/** Plays one game of Wordle per rollout against the row's answer. */
export class WordleEnv extends MultiTurnEnv<WordleData> {
  readonly maxGuesses: number;
  private readonly allowed: ReadonlySet<string>;

  constructor(options: WordleEnvOptions) {
    const { maxGuesses, allowed, ...rest } = options;
    // An invalid move must be followed by a valid one or the game ends: two turns per guess at most.
    super({
      ...rest,
      maxTurns: 2 * maxGuesses,
      initialData: (input) => ({ game: newGame(input.answer, maxGuesses) }),
    });
    this.maxGuesses = maxGuesses;
    this.allowed = allowed;
  }

  protected envResponse(messages: Messages, state: RolloutState<WordleData>): EnvResponse {
    const game = state.data.game;
    const outcome = playMove(game, judgeMove(game, lastAssistantText(messages), this.allowed));
    state.data.game = outcome.game;
    const reply = [{ role: "user" as const, content: outcome.reply }];
    return outcome.over ? { messages: reply, final: true } : reply;
  }
}
