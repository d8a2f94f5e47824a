import { fileURLToPath } from "node:url";
import { contentText } from "@vf-rl/core";
import { readRun } from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { feedbackLines, wordleFeedback } from "./wordle-feedback.ts";

// The games gpt-4.1-mini played in verifiers' wordle environment (TextArena's Wordle-v0), as saved
// by verifiers; core keeps a copy of the fixtures beside its results reader.
const FIXTURE_RUN = fileURLToPath(
  new URL(
    "./results/fixtures/verifiers-outputs/evals/wordle--gpt-4.1-mini/816ec3b0",
    import.meta.resolve("@vf-rl/core"),
  ),
);

/** Every "A R I S E" line followed by its "X Y X Y X" line in the game's messages. */
function recordedFeedback(text: string): Array<{ guess: string; pattern: string }> {
  const lines = text.split("\n").map((line) => line.trim());
  const found: Array<{ guess: string; pattern: string }> = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (/^([A-Z] ){4}[A-Z]$/.test(lines[i]!) && /^([GYX] ){4}[GYX]$/.test(lines[i + 1]!)) {
      found.push({ guess: lines[i]!.replace(/ /g, ""), pattern: lines[i + 1]!.replace(/ /g, "") });
    }
  }
  return found;
}

describe("wordleFeedback", () => {
  it("marks right letters in place green, present ones yellow, absent ones gray", () => {
    expect(wordleFeedback("story", "arise")).toBe("XYXYX");
    expect(wordleFeedback("story", "story")).toBe("GGGGG");
    expect(wordleFeedback("thing", "crane")).toBe("XXXGX");
  });

  it("takes greens before yellows, so a letter matched in place is not offered again", () => {
    // The secret has one "r": the green at position 4 takes it, the "r" at position 3 is gray.
    expect(wordleFeedback("story", "sorry")).toBe("GYXGG");
    // One "e" in the secret, two in the guess: the green wins and the other is gray.
    expect(wordleFeedback("voice", "eerie")).toBe("XXXYG");
    expect(wordleFeedback("voice", "geese")).toBe("XXXXG");
  });

  it("gives yellows left to right, no more than the secret's spare copies of the letter", () => {
    // "sleep" has two spare "e"s: the first two "e"s of the guess are yellow, the third gray.
    expect(wordleFeedback("sleep", "eerie")).toBe("YYXXX");
    expect(wordleFeedback("abbey", "babes")).toBe("YYGGX");
    expect(wordleFeedback("abbey", "kebab")).toBe("XYGYY");
    expect(wordleFeedback("water", "otter")).toBe("XXGGG");
  });

  it("ignores case and refuses words of different lengths", () => {
    expect(wordleFeedback("STORY", "Story")).toBe("GGGGG");
    expect(() => wordleFeedback("story", "stories")).toThrow(/7 letters and the secret 5/);
  });

  it("lays out feedback as TextArena does", () => {
    expect(feedbackLines("arise", "XYXYX")).toBe("A R I S E\nX Y X Y X");
  });

  it("gives the same pattern as every guess of verifiers' recorded wordle games", async () => {
    const run = await readRun(FIXTURE_RUN);
    expect(run.records).toHaveLength(15);
    let compared = 0;
    for (const record of run.records) {
      for (const message of record.completion) {
        if (message.role !== "user") continue;
        for (const { guess, pattern } of recordedFeedback(contentText(message.content))) {
          expect(wordleFeedback(record.answer, guess), `${guess} against ${record.answer}`).toBe(pattern);
          compared++;
        }
      }
    }
    // The run holds 15 games; each shows its board after every guess (and repeats it after a win).
    expect(compared).toBeGreaterThan(60);
  });
});
