import { describe, expect, it } from "vitest";
import { DatasetRow, describeRowIssue } from "./dataset-row.ts";

describe("DatasetRow", () => {
  it("fills defaults for a question row", () => {
    expect(DatasetRow.parse({ question: "2+2?" })).toEqual({
      question: "2+2?",
      answer: "",
      info: {},
      task: "default",
    });
  });

  it("converts numeric answers to strings", () => {
    expect(DatasetRow.parse({ question: "q", answer: 42 }).answer).toBe("42");
    expect(DatasetRow.parse({ question: "q", answer: 3.5 }).answer).toBe("3.5");
    expect(DatasetRow.parse({ question: "q", answer: 10n }).answer).toBe("10");
  });

  it("parses info given as a JSON string", () => {
    expect(DatasetRow.parse({ question: "q", info: '{"level": 3}' }).info).toEqual({ level: 3 });
  });

  it("treats null cells as absent", () => {
    expect(DatasetRow.parse({ question: "q", prompt: null, answer: null, info: null, task: null })).toEqual({
      question: "q",
      answer: "",
      info: {},
      task: "default",
    });
  });

  it("keeps columns it does not know", () => {
    expect(DatasetRow.parse({ question: "q", level: "hard" })).toMatchObject({ level: "hard" });
  });

  it.each([
    [{ answer: "4" }, 'has neither a "prompt" nor a "question" column: give every row'],
    [
      { prompt: "hi" },
      "prompt: Invalid input: expected array, received string: give prompt as a list of chat messages",
    ],
    [{ prompt: [{ role: "bot", content: "x" }] }, "prompt[0].role: Invalid discriminator value"],
    [{ question: 5 }, "question: Invalid input: expected string, received number: give question as a string"],
    [
      { question: "q", answer: { value: 1 } },
      "answer: must be a string or a number: give answer as a string or a number",
    ],
    [{ question: "q", info: "{oops" }, "info: is a string but not valid JSON ("],
    [{ question: "q", info: "[1, 2]" }, "info: is a JSON string that does not hold an object"],
    [{ question: "q", info: [1, 2] }, "info: must be an object or a JSON string holding an object"],
    [
      { question: "q", task: 3 },
      "task: Invalid input: expected string, received number: give task as a string",
    ],
  ])("describes a bad row %j", (row, message) => {
    const result = DatasetRow.safeParse(row);
    expect(result.success).toBe(false);
    expect(describeRowIssue(result.error!)).toContain(message);
  });
});
