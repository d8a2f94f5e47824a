import { describe, expect, it } from "vitest";
import type { Messages } from "../messages/message.ts";
import { Parser } from "./parser.ts";

describe("Parser", () => {
  it("returns the text itself by default", () => {
    expect(new Parser().parse("hello")).toBe("hello");
  });

  it("applies its extract function", () => {
    const parser = new Parser({ extract: (text) => text.toUpperCase() });
    expect(parser.parse("hello")).toBe("HELLO");
  });

  it("parses the last assistant message of a completion", () => {
    const completion: Messages = [
      { role: "assistant", content: "first" },
      { role: "user", content: "again?" },
      { role: "assistant", content: "second" },
      { role: "tool", content: "tool output", tool_call_id: "c1" },
    ];
    expect(new Parser().parseAnswer(completion)).toBe("second");
  });

  it("joins the text parts of a content-part message", () => {
    const completion: Messages = [
      {
        role: "assistant",
        content: [
          { type: "text", text: "4" },
          { type: "image_url", image_url: { url: "data:," } },
          { type: "text", text: "2" },
        ],
      },
    ];
    expect(new Parser().parseAnswer(completion)).toBe("42");
  });

  it("parses a string completion as is, and has no answer without an assistant message", () => {
    expect(new Parser().parseAnswer("plain")).toBe("plain");
    expect(new Parser().parseAnswer([{ role: "user", content: "hi" }])).toBeNull();
  });

  it("expects no format: its format score is always 1", () => {
    expect(new Parser().formatScore([{ role: "assistant", content: "anything" }])).toBe(1);
  });
});
