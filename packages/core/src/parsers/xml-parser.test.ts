import { describe, expect, it } from "vitest";
import { AuthoringError, UserError } from "../errors.ts";
import type { Messages } from "../messages/message.ts";
import { extractBoxedAnswer } from "./boxed-answer.ts";
import { XMLParser } from "./xml-parser.ts";

const parser = new XMLParser(["reasoning", "answer"]);
const withAlternatives = new XMLParser(["reasoning", ["code", "answer"]]);
const assistant = (...contents: string[]): Messages =>
  contents.map((content) => ({ role: "assistant" as const, content }));

describe("XMLParser fields", () => {
  it("names the canonical fields in order", () => {
    expect(parser.fieldNames()).toEqual(["reasoning", "answer"]);
    expect(withAlternatives.fieldNames()).toEqual(["reasoning", "code"]);
    expect(parser.answerField).toBe("answer");
  });

  it("rejects empty alternatives, empty tags and repeated tags", () => {
    expect(() => new XMLParser([[]])).toThrow(/empty list/);
    expect(() => new XMLParser([""])).toThrow(/non-empty strings/);
    expect(() => new XMLParser(["field1", "field1"])).toThrow(/appears twice/);
    expect(() => new XMLParser(["a", ["b", "a"]])).toThrow(/"a" appears twice/);
    expect(new XMLParser([]).fieldNames()).toEqual([]);
  });

  it("reports bad tags as an author's mistake (a UserError naming the fix), not an internal error", () => {
    for (const fields of [[[]], [""], ["a", ["b", "a"]]]) {
      expect(() => new XMLParser(fields)).toThrow(AuthoringError);
      expect(() => new XMLParser(fields)).toThrow(UserError);
    }
    expect(() => parser.format({ reasoning: "r" })).toThrow(UserError);
  });
});

describe("XMLParser.parseFields", () => {
  it("reads each tag's content, trimmed, across lines", () => {
    const text = `
      <reasoning>
      Let me think about this problem step by step.
      </reasoning>
      <answer>
      The final answer is 42.
      </answer>`;
    expect(parser.parseFields(text)).toEqual({
      reasoning: "Let me think about this problem step by step.",
      answer: "The final answer is 42.",
    });
  });

  it("reports every alternative, null when absent", () => {
    const text = "<reasoning>First, understand.</reasoning>\n<code>\ndef solve(): return 42\n</code>";
    expect(withAlternatives.parseFields(text)).toEqual({
      reasoning: "First, understand.",
      code: "def solve(): return 42",
      answer: null,
    });
  });

  it("gives null for missing fields and '' for empty ones", () => {
    expect(parser.parseFields("<reasoning>Only reasoning here</reasoning>")).toEqual({
      reasoning: "Only reasoning here",
      answer: null,
    });
    expect(parser.parseFields("<reasoning></reasoning><answer></answer>")).toEqual({
      reasoning: "",
      answer: "",
    });
  });

  it("trims around the content with or without strip, as the pattern itself skips the whitespace", () => {
    const text = "<answer>  spaced content  </answer>";
    expect(parser.parseFields(text, { strip: true }).answer).toBe("spaced content");
    expect(parser.parseFields(text, { strip: false }).answer).toBe("spaced content");
  });

  it("keeps inner whitespace, and takes the first or the last occurrence", () => {
    const text = "<answer>a\n\n b</answer> <answer>second</answer>";
    expect(parser.parseFields(text).answer).toBe("a\n\n b");
    expect(parser.parseFields(text, { last: true }).answer).toBe("second");
  });

  it("matches tags with regex characters literally", () => {
    const odd = new XMLParser(["a.b", "answer"]);
    expect(odd.parseFields("<aXb>no</aXb><a.b>yes</a.b>")["a.b"]).toBe("yes");
  });
});

describe("XMLParser answers", () => {
  it("parses the last answer in a text and applies extract", () => {
    expect(parser.parse("<answer>44</answer><reasoning>no</reasoning><answer>45</answer>")).toBe("45");
    const boxed = new XMLParser(["answer"], { extract: extractBoxedAnswer });
    expect(boxed.parse("<answer>so \\boxed{7}</answer>")).toBe("7");
  });

  it("takes the newest assistant message that has an answer", () => {
    const completion: Messages = [
      { role: "user", content: "Solve this problem" },
      { role: "assistant", content: "<reasoning>Let me think</reasoning><answer>42</answer>" },
      { role: "assistant", content: "<reasoning>Actually, let me reconsider</reasoning><answer>43</answer>" },
      { role: "assistant", content: "<reasoning>Done.</reasoning>" },
      { role: "user", content: "<answer>not the model's</answer>" },
    ];
    expect(parser.parseAnswer(completion)).toBe("43");
  });

  it("uses the last answer within a message, and string completions too", () => {
    const text = "<answer>44</answer><reasoning>Not right.</reasoning><answer>45</answer>";
    expect(parser.parseAnswer(assistant(text))).toBe("45");
    expect(parser.parseAnswer(text)).toBe("45");
  });

  it("is null when no message has the answer field", () => {
    expect(parser.parseAnswer(assistant("<reasoning>Only reasoning here</reasoning>"))).toBeNull();
    expect(parser.parseAnswer([])).toBeNull();
  });

  it("reads another field when told to", () => {
    const guesses = new XMLParser(["think", "guess"], { answerField: "guess" });
    expect(guesses.parseAnswer(assistant("<think>hm</think><guess>crane</guess>"))).toBe("crane");
  });
});

describe("XMLParser formatting", () => {
  it("describes the format, alternatives included", () => {
    expect(parser.formatString()).toBe("<reasoning>\n...\n</reasoning>\n<answer>\n...\n</answer>");
    expect(withAlternatives.formatString()).toContain("<[ code | answer ]>\n...\n</[ code | answer ]>");
  });

  it("renders values under the canonical tags", () => {
    expect(parser.format({ reasoning: "My reasoning", answer: "42" })).toBe(
      "<reasoning>\nMy reasoning\n</reasoning>\n<answer>\n42\n</answer>",
    );
    expect(withAlternatives.format({ reasoning: "test", answer: "print('hello')" })).toContain(
      "<code>\nprint('hello')\n</code>",
    );
    expect(withAlternatives.format({ reasoning: "t", code: "canonical", answer: "alt" })).toContain(
      "<code>\ncanonical\n</code>",
    );
  });

  it("refuses to render with a field missing", () => {
    expect(() => parser.format({ reasoning: "Only reasoning" })).toThrow(/missing value for field "answer"/);
  });

  it("round-trips: what format renders, parseFields reads back", () => {
    const rendered = parser.format({ reasoning: "step 1\nstep 2", answer: "7" });
    expect(parser.parseFields(rendered)).toEqual({ reasoning: "step 1\nstep 2", answer: "7" });
  });
});

describe("XMLParser.formatScore", () => {
  const score = (...contents: string[]) => parser.formatScore(assistant(...contents));

  it("is 1 for a message with every field, starting and ending with them", () => {
    expect(score("<reasoning>Good reasoning</reasoning><answer>42</answer>")).toBe(1);
    expect(score(parser.format({ reasoning: "r", answer: "a" }))).toBe(1);
  });

  it("gives plain text only the spacing credit", () => {
    expect(score("Just plain text without XML")).toBeCloseTo(0.2);
  });

  it("credits present fields by share, and the start and end separately", () => {
    // one of two fields, starts with the first: 0.4 × 1/2 + 0.2 + 0.2
    expect(score("<reasoning>only</reasoning> and more")).toBeCloseTo(0.6);
    // both fields but text after the last tag: 0.4 + 0.2 + 0.2
    expect(score("<reasoning>r</reasoning><answer>4</answer> trailing")).toBeCloseTo(0.8);
    // both fields, text before the first tag: 0.4 + 0.2 + 0.2
    expect(score("Sure! <reasoning>r</reasoning><answer>4</answer>")).toBeCloseTo(0.8);
  });

  it("counts a stray tag as an attempted field only when some field parsed", () => {
    // answer opened but never closed: reasoning parsed, answer attempted → 0.4 + 0.2 + 0.2
    expect(score("<reasoning>r</reasoning><answer>4")).toBeCloseTo(0.8);
    // no field parsed at all: only spacing and the start tag count
    expect(score("<reasoning>never closed")).toBeCloseTo(0.4);
  });

  it("accepts any alternative of the first and last fields", () => {
    expect(withAlternatives.formatScore(assistant("<reasoning>r</reasoning><answer>x</answer>"))).toBe(1);
  });

  it("averages over assistant messages and is 0 without any", () => {
    expect(score("<reasoning>r</reasoning><answer>4</answer>", "plain")).toBeCloseTo(0.6);
    expect(parser.formatScore([{ role: "user", content: "<answer>1</answer>" }])).toBe(0);
  });
});
