import { describe, expect, it } from "vitest";
import { extractGuess, judgeMove, newGame, playMove, type WordleGame } from "./wordle-game.ts";

const allowed = new Set(["arise", "story", "sorry", "crane", "slice", "voice", "shrub", "scorn", "blond"]);

/** Plays replies in order and returns the final game and the game's answers. */
function play(secret: string, replies: string[], maxGuesses = 6) {
  let game: WordleGame = newGame(secret, maxGuesses);
  const answers: string[] = [];
  let over = false;
  for (const reply of replies) {
    expect(over, "the game ended before the last reply").toBe(false);
    const outcome = playMove(game, judgeMove(game, reply, allowed));
    game = outcome.game;
    answers.push(outcome.reply);
    over = outcome.over;
  }
  return { game, answers, over };
}

describe("extractGuess", () => {
  it("reads the word with or without TextArena's square brackets", () => {
    expect(extractGuess("<guess>[arise]</guess>")).toBe("arise");
    expect(extractGuess("I think... <guess> Arise </guess>")).toBe("arise");
    expect(extractGuess("<guess>[ crane ]</guess>")).toBe("crane");
  });

  it("takes the last guess tag of a reply, and null without one", () => {
    expect(extractGuess("<guess>[earlr]</guess> is not a word. Try <guess>[eager]</guess>")).toBe("eager");
    expect(extractGuess("I guess crane")).toBeNull();
  });
});

describe("a game", () => {
  it("answers each guess with its letters, its marks and the guesses left", () => {
    const { answers, game, over } = play("story", ["<guess>[arise]</guess>"]);
    expect(answers[0]).toBe("A R I S E\nX Y X Y X\nYou have 5 guesses left.");
    expect(game.guesses).toEqual([{ word: "arise", pattern: "XYXYX" }]);
    expect(over).toBe(false);
  });

  it("ends with a win when every letter is green", () => {
    const { answers, game, over } = play("story", ["<guess>[arise]</guess>", "<guess>story</guess>"]);
    expect(answers[1]).toBe("S T O R Y\nG G G G G\nCongratulations! You guessed the word in 2 guesses.");
    expect(game.status).toBe("won");
    expect(over).toBe(true);
  });

  it("ends with a loss after the last guess, and reveals the word", () => {
    const { answers, game, over } = play("story", ["<guess>arise</guess>", "<guess>crane</guess>"], 2);
    expect(answers[0]).toMatch(/You have 1 guess left\.$/);
    expect(answers[1]).toBe("C R A N E\nX Y X X X\nYou have no guesses left. The word was STORY.");
    expect(game.status).toBe("lost");
    expect(over).toBe(true);
  });

  it("refuses an invalid move once without using a guess, and says why", () => {
    const cases: Array<[string, RegExp]> = [
      ["no tag here", /no <guess>\.\.\.<\/guess> tag/],
      ["<guess>[splice]</guess>", /"splice" has 6 letters; your word must be exactly 5 letters/],
      ["<guess>[pliny]</guess>", /"pliny" is not in the game's word list/],
      ["<guess>[a-b-c]</guess>", /use letters only/],
    ];
    for (const [reply, reason] of cases) {
      const { answers, game, over } = play("story", [reply]);
      expect(answers[0]).toMatch(reason);
      expect(answers[0]).toMatch(/It did not use a guess/);
      expect(game.guesses).toHaveLength(0);
      expect(over).toBe(false);
    }
    const repeated = play("story", ["<guess>arise</guess>", "<guess>arise</guess>", "<guess>crane</guess>"]);
    expect(repeated.answers[1]).toMatch(/already guessed "arise"/);
    expect(repeated.answers[2]).toMatch(/You have 4 guesses left\.$/);
  });

  it("ends the game on a second invalid move in a row, but not after a valid move between", () => {
    const spaced = play("story", ["<guess>pliny</guess>", "<guess>arise</guess>", "<guess>zzzzz</guess>"]);
    expect(spaced.over).toBe(false);
    expect(spaced.game.invalidMoves).toBe(2);
    const twice = play("story", ["<guess>pliny</guess>", "nothing"]);
    expect(twice.over).toBe(true);
    expect(twice.game.status).toBe("forfeited");
    expect(twice.answers[1]).toMatch(/invalid move again: there is no <guess>.*The word was STORY\.$/);
  });
});
