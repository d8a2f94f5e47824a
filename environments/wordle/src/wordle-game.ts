/**
 * The rules of one Wordle game as pure functions: reading a guess out of the model's reply, judging
 * it, and the game's answer. Invalid moves follow TextArena's Wordle (the game verifiers plays): a
 * reply without a guess, a word of the wrong length, a repeated word or one outside the word list
 * is refused without using a guess, once; a second invalid move in a row ends the game.
 */
import { XMLParser } from "@vf-rl/core";
import { feedbackLines, wordleFeedback } from "./wordle-feedback.ts";

/** Letters in a secret and in every guess. */
export const WORD_LENGTH = 5;

/** Parses `<guess>...</guess>`; the reply's last guess tag counts. */
export const guessParser = new XMLParser(["guess"], { answerField: "guess" });

/** One accepted guess and its feedback pattern ("GYXXG"). */
export interface ScoredGuess {
  word: string;
  pattern: string;
}

/** Where a game stands: still going, won, out of guesses, or ended by two invalid moves in a row. */
export type GameStatus = "playing" | "won" | "lost" | "forfeited";

/** A game's state between turns (kept in the rollout's `state.data`). */
export interface WordleGame {
  secret: string;
  maxGuesses: number;
  /** Accepted guesses, in order. */
  guesses: ScoredGuess[];
  /** Invalid moves since the last accepted guess. */
  invalidInARow: number;
  /** Invalid moves over the whole game. */
  invalidMoves: number;
  status: GameStatus;
}

/** A reply judged: an accepted guess, or an invalid move and why. */
export type Move = { type: "guess"; word: string; pattern: string } | { type: "invalid"; reason: string };

/** A new game with this secret. */
export function newGame(secret: string, maxGuesses: number): WordleGame {
  return {
    secret: secret.toLowerCase(),
    maxGuesses,
    guesses: [],
    invalidInARow: 0,
    invalidMoves: 0,
    status: "playing",
  };
}

/**
 * The word inside the reply's last `<guess>` tag, with TextArena's square brackets optional
 * (`<guess>[arise]</guess>` and `<guess>arise</guess>` both give "arise"); null without a tag.
 */
export function extractGuess(reply: string): string | null {
  const content = guessParser.parse(reply);
  if (content === null) return null;
  return content
    .replace(/^\[\s*/, "")
    .replace(/\s*\]$/, "")
    .trim()
    .toLowerCase();
}

/** Judges the model's reply against the game and the list of words it accepts. */
export function judgeMove(game: WordleGame, reply: string, allowed: ReadonlySet<string>): Move {
  const word = extractGuess(reply);
  if (word === null) return { type: "invalid", reason: "there is no <guess>...</guess> tag in your reply" };
  if (!/^[a-z]+$/.test(word)) return { type: "invalid", reason: `"${word}" is not a word: use letters only` };
  if (word.length !== WORD_LENGTH) {
    return {
      type: "invalid",
      reason: `"${word}" has ${word.length} letters; your word must be exactly ${WORD_LENGTH} letters`,
    };
  }
  if (game.guesses.some((g) => g.word === word)) {
    return { type: "invalid", reason: `you have already guessed "${word}"; try a different word` };
  }
  if (!allowed.has(word)) return { type: "invalid", reason: `"${word}" is not in the game's word list` };
  return { type: "guess", word, pattern: wordleFeedback(game.secret, word) };
}

/** What the game says after a move, and whether that ends it. */
export interface TurnOutcome {
  game: WordleGame;
  reply: string;
  over: boolean;
}

/** Plays one move: the next game state and the game's answer to the model. */
export function playMove(game: WordleGame, move: Move): TurnOutcome {
  const reveal = `The word was ${game.secret.toUpperCase()}.`;
  if (move.type === "invalid") {
    const invalidMoves = game.invalidMoves + 1;
    if (game.invalidInARow >= 1) {
      const next = {
        ...game,
        invalidMoves,
        invalidInARow: game.invalidInARow + 1,
        status: "forfeited" as const,
      };
      return {
        game: next,
        reply: `You attempted an invalid move again: ${move.reason}. The game is over. ${reveal}`,
        over: true,
      };
    }
    return {
      game: { ...game, invalidMoves, invalidInARow: game.invalidInARow + 1 },
      reply: `You attempted an invalid move: ${move.reason}. It did not use a guess. Please make a valid move; a second invalid move in a row ends the game.`,
      over: false,
    };
  }
  const guesses = [...game.guesses, { word: move.word, pattern: move.pattern }];
  const lines = feedbackLines(move.word, move.pattern);
  if (move.pattern === "G".repeat(WORD_LENGTH)) {
    const count = guesses.length === 1 ? "1 guess" : `${guesses.length} guesses`;
    return {
      game: { ...game, guesses, invalidInARow: 0, status: "won" },
      reply: `${lines}\nCongratulations! You guessed the word in ${count}.`,
      over: true,
    };
  }
  const left = game.maxGuesses - guesses.length;
  if (left <= 0) {
    return {
      game: { ...game, guesses, invalidInARow: 0, status: "lost" },
      reply: `${lines}\nYou have no guesses left. ${reveal}`,
      over: true,
    };
  }
  return {
    game: { ...game, guesses, invalidInARow: 0 },
    reply: `${lines}\nYou have ${left} ${left === 1 ? "guess" : "guesses"} left.`,
    over: false,
  };
}

/** The game's opening message: the rules and the format of a guess. */
export function rulesPrompt(maxGuesses: number): string {
  return [
    "You are playing Wordle.",
    `A secret ${WORD_LENGTH}-letter English word has been chosen. You have ${maxGuesses} attempts to guess it.`,
    "Write each guess inside <guess> tags, e.g. <guess>[apple]</guess>.",
    "After each guess you see your word and one mark per letter:",
    "  - G (green): correct letter in the correct position",
    "  - Y (yellow): the letter is in the word but in another position",
    "  - X (gray): the letter is not in the word (or not as many times as you used it)",
    "Enter your guess to begin.",
  ].join("\n");
}
