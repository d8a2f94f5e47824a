// The Anthropic Messages dialect reads what Claude Code sends: mid-conversation system turns (the
// `mid-conversation-system` beta it uses for models it does not know) and the tool changes they carry.
import { describe, expect, it } from "vitest";
import { anthropicDialect } from "./anthropic-messages.ts";
import type { DialectRequest } from "./dialect.ts";

const HEADERS = { "anthropic-version": "2023-06-01" };

const bash = {
  name: "Bash",
  description: "Run a command.",
  input_schema: { type: "object", properties: { command: { type: "string" } } },
};
const grep = { name: "Grep", input_schema: { type: "object", properties: { pattern: { type: "string" } } } };

function read(body: Record<string, unknown>): DialectRequest {
  const request = anthropicDialect.read({ model: "claude-x", max_tokens: 64, ...body }, HEADERS);
  if (typeof request === "string") throw new Error(request);
  return request;
}

describe("the Anthropic Messages dialect", () => {
  it("reads mid-conversation system turns as system messages where they stand", () => {
    const request = read({
      system: [{ type: "text", text: "You are Claude Code." }],
      tools: [bash],
      messages: [
        { role: "user", content: "Write 42 into answer.txt." },
        { role: "system", content: "The date is 2026-11-27." },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo 42 > answer.txt" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "" }] },
        {
          role: "system",
          content: [
            { type: "text", text: "Remember the task.", cache_control: { type: "ephemeral" } },
            { type: "text", text: "Be brief." },
          ],
          clear_at: "next_user_message",
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: "system", content: "You are Claude Code." },
      { role: "user", content: "Write 42 into answer.txt." },
      { role: "system", content: "The date is 2026-11-27." },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "toolu_1",
            type: "function",
            function: { name: "Bash", arguments: '{"command":"echo 42 > answer.txt"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "" },
      { role: "system", content: "Remember the task.\n\nBe brief." },
    ]);
    expect(request.dropped).toBeUndefined();
  });

  it("offers the tools as a system turn's additions and removals leave them, and lists what it left out", () => {
    const request = read({
      tools: [bash, { type: "web_search_20250305", name: "web_search" }],
      messages: [
        { role: "user", content: "Find the bug." },
        {
          role: "system",
          content: [
            { type: "tool_addition", tool: { type: "tool_definition", definition: grep } },
            { type: "tool_removal", tool: { type: "tool_reference", name: "Bash" } },
            {
              type: "tool_addition",
              tool: { type: "tool_definition", definition: { type: "bash_20250124", name: "bash" } },
            },
          ],
        },
        { role: "system", content: [], output_config: { effort: "low" } },
      ],
    });
    expect(request.tools?.map((tool) => tool.function.name)).toEqual(["Grep"]);
    // A system turn with no text is no message.
    expect(request.messages).toEqual([{ role: "user", content: "Find the bug." }]);
    expect(request.dropped).toEqual([
      `tool "web_search" (web_search_20250305): a server tool, run by Anthropic's servers, with no input schema to offer the model`,
      `tool "bash" (bash_20250124): a server tool, run by Anthropic's servers, with no input schema to offer the model`,
      "a system turn's output_config (per-turn output settings), which vf does not forward",
    ]);
  });

  it("still refuses a role the API does not have", () => {
    expect(
      anthropicDialect.read({ max_tokens: 8, messages: [{ role: "tool", content: "x" }] }, HEADERS),
    ).toBe('messages: unexpected role "tool"');
  });
});
