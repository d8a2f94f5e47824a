import { describe, expect, it } from "vitest";
import { extractBoxedAnswer } from "./boxed-answer.ts";
import { ThinkParser } from "./think-parser.ts";

const parser = new ThinkParser();
const boxed = new ThinkParser({ extract: extractBoxedAnswer });

describe("ThinkParser.parse", () => {
  it("keeps the trimmed text after </think>", () => {
    const text = "<think>\n  Let me think.\n  </think>\n\n  The final answer is 42.\n  ";
    expect(parser.parse(text)).toBe("The final answer is 42.");
  });

  it("gives an empty answer when the model never closed its thinking", () => {
    expect(parser.parse("Just an answer without thinking tags.")).toBe("");
    expect(parser.parse("<think>still thinking")).toBe("");
  });

  it("uses the text after the last block", () => {
    const text = "<think>First</think>\nSome text.\n<think>Second</think>\nFinal answer here.";
    expect(parser.parse(text)).toBe("Final answer here.");
  });

  it("is empty when nothing follows the block", () => {
    expect(parser.parse("<think>Some thinking</think>")).toBe("");
  });

  it("applies the extract function after removing the thinking", () => {
    expect(boxed.parse("<think>\\boxed{1}?</think> The answer is \\boxed{42}.")).toBe("42");
    expect(boxed.parse("<think>hmm</think> Just a plain answer.")).toBe("Just a plain answer.");
  });

  it("parses the last assistant message, or a string completion", () => {
    expect(
      parser.parseAnswer([
        { role: "user", content: "What is 2+2?" },
        { role: "assistant", content: "<think>Let me calculate</think>The answer is 4" },
      ]),
    ).toBe("The answer is 4");
    expect(parser.parseAnswer("<think>Calculating...</think>Result: 42")).toBe("Result: 42");
  });
});

describe("ThinkParser.formatScore", () => {
  const score = (...contents: string[]) =>
    parser.formatScore(contents.map((content) => ({ role: "assistant" as const, content })));

  it("is 1 for <think>...</think> followed by an answer", () => {
    expect(score("<think>Let me think</think>Final answer")).toBe(1);
    expect(score("  <think>a</think>\nb")).toBe(1);
  });

  it("is 0 without tags, with two blocks, or with nothing after the block", () => {
    expect(score("Just an answer without thinking")).toBe(0);
    expect(score("<think>First</think><think>Second</think>Answer")).toBe(0);
    expect(score("<think>Only thinking</think>")).toBe(0);
    expect(score("<think>Only thinking</think>\n  ")).toBe(0);
    expect(score("Answer first <think>then thinking</think> more")).toBe(0);
  });

  it("averages over the assistant messages", () => {
    expect(
      score("<think>Good</think>Good answer", "Bad answer", "<think>More</think>Another good answer"),
    ).toBeCloseTo(2 / 3);
  });

  it("is 0 without assistant messages", () => {
    expect(parser.formatScore([{ role: "user", content: "Question" }])).toBe(0);
  });
});
