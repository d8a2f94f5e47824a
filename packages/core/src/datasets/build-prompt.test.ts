import { describe, expect, it } from "vitest";
import type { Messages } from "../messages/message.ts";
import { buildPrompt } from "./build-prompt.ts";
import type { Example } from "./example.ts";

const question: Example = { exampleId: 0, question: "What is 2+2?", answer: "4", info: {}, task: "default" };
const fewShot: Messages = [
  { role: "user", content: "What is 1+1?" },
  { role: "assistant", content: "2" },
];

describe("buildPrompt", () => {
  it("asks the question as a user message", () => {
    expect(buildPrompt(question)).toEqual([{ role: "user", content: "What is 2+2?" }]);
  });

  it("puts the system prompt and few-shot turns before the question", () => {
    expect(buildPrompt(question, { systemPrompt: "Be brief.", fewShot })).toEqual([
      { role: "system", content: "Be brief." },
      ...fewShot,
      { role: "user", content: "What is 2+2?" },
    ]);
  });

  it("prepends the system prompt to a prompt row, and ignores few-shot turns there", () => {
    const row: Example = { ...question, prompt: [{ role: "user", content: "Hi" }] };
    expect(buildPrompt(row, { systemPrompt: "Be brief.", fewShot })).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
  });

  it("keeps a prompt's own system message", () => {
    const prompt: Messages = [
      { role: "system", content: "Own rules." },
      { role: "user", content: "Hi" },
    ];
    expect(buildPrompt({ ...question, prompt }, { systemPrompt: "Be brief." })).toEqual(prompt);
  });

  it("returns a new list, so callers can append to it", () => {
    const prompt: Messages = [{ role: "user", content: "Hi" }];
    const built = buildPrompt({ ...question, prompt });
    built.push({ role: "assistant", content: "Hello" });
    expect(prompt).toHaveLength(1);
  });

  it("refuses an example with neither prompt nor question", () => {
    expect(() => buildPrompt({ exampleId: 7, answer: "", info: {}, task: "default" })).toThrow(
      /example 7 has neither a prompt nor a question/,
    );
  });
});
