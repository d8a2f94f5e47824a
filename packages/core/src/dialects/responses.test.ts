// The Responses dialect reads the tools Codex sends (function tools, MCP servers' tools as a
// `namespace` tool, freeform `custom` tools, hosted tools) as function tools the model can call, and
// says the model's calls back as Codex expects them: under the namespace and name it offered.
import { describe, expect, it } from "vitest";
import type { DialectAnswer, DialectRequest } from "./dialect.ts";
import { responsesDialect } from "./responses.ts";

const ECHO_PARAMETERS = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

/** Tools as Codex 0.171 sends them (trimmed): its own, an MCP server's, a freeform one, web search. */
const CODEX_TOOLS = [
  { type: "function", name: "exec_command", description: "Runs a command.", strict: false, parameters: {} },
  {
    type: "namespace",
    name: "mcp__vf_0",
    description: "Tools in the mcp__vf_0 namespace.",
    tools: [
      { type: "function", name: "echo", description: "Echo the text back.", parameters: ECHO_PARAMETERS },
    ],
  },
  {
    type: "custom",
    name: "apply_patch",
    description: "Edit files with a patch.",
    format: { type: "grammar", syntax: "lark", definition: 'start: "*** Begin Patch" /(.|\\n)*/' },
  },
  { type: "web_search", external_web_access: true },
];

function read(body: Record<string, unknown>): DialectRequest {
  const request = responsesDialect.read({ model: "scripted", ...body }, {});
  if (typeof request === "string") throw new Error(request);
  return request;
}

/** An answer calling `calls` (name and arguments). */
function calling(...calls: Array<[string, string]>): DialectAnswer {
  return {
    id: "resp_1",
    created: 0,
    model: "scripted",
    message: {
      role: "assistant",
      content: null,
      tool_calls: calls.map(([name, args], i) => ({
        id: `call_${i}`,
        type: "function",
        function: { name, arguments: args },
      })),
    },
    finishReason: "tool_calls",
    usage: { promptTokens: 1, completionTokens: 1 },
    tokens: null,
  };
}

describe("the Responses dialect", () => {
  it("offers a namespace's tools and custom tools as function tools, and lists the hosted ones it left out", () => {
    const request = read({ input: "Echo hello.", tools: CODEX_TOOLS });
    expect(request.tools).toEqual([
      {
        type: "function",
        function: { name: "exec_command", description: "Runs a command.", parameters: {} },
      },
      {
        type: "function",
        function: {
          name: "mcp__vf_0__echo",
          description: "Echo the text back.",
          parameters: ECHO_PARAMETERS,
        },
      },
      {
        type: "function",
        function: {
          name: "apply_patch",
          description:
            'Edit files with a patch.\n\nThe input is text in this lark grammar:\nstart: "*** Begin Patch" /(.|\\n)*/',
          parameters: {
            type: "object",
            properties: { input: { type: "string", description: "The tool's input, as text." } },
            required: ["input"],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect(request.dropped).toEqual([
      `tool "web_search" (web_search): a hosted tool, run by OpenAI's servers, with no function form to offer the model`,
    ]);
  });

  it("says the model's calls back under the namespace and name, or as a custom tool call, whole and streamed", () => {
    const request = read({ input: "Echo hello.", tools: CODEX_TOOLS, stream: true });
    const answer = calling(
      ["mcp__vf_0__echo", '{"text":"hello"}'],
      ["apply_patch", JSON.stringify({ input: "*** Begin Patch\n*** End Patch" })],
      ["exec_command", '{"cmd":"ls"}'],
    );
    const whole = JSON.parse(responsesDialect.answer(answer, request)) as { output: unknown[] };
    const expected = [
      {
        type: "function_call",
        call_id: "call_0",
        name: "echo",
        namespace: "mcp__vf_0",
        arguments: '{"text":"hello"}',
      },
      {
        type: "custom_tool_call",
        call_id: "call_1",
        name: "apply_patch",
        input: "*** Begin Patch\n*** End Patch",
      },
      { type: "function_call", call_id: "call_2", name: "exec_command", arguments: '{"cmd":"ls"}' },
    ];
    expect(whole.output).toMatchObject(expected);
    expect(whole.output[2]).not.toHaveProperty("namespace");

    const events = responsesDialect.events!(answer, request).map(
      (event) => JSON.parse(event.split("data: ")[1]!) as Record<string, unknown>,
    );
    const done = events
      .filter((event) => event.type === "response.output_item.done")
      .map((event) => event.item);
    expect(done).toMatchObject(expected);
    expect(events.find((event) => event.type === "response.custom_tool_call_input.done")).toMatchObject({
      input: "*** Begin Patch\n*** End Patch",
    });
  });

  it("reads a namespaced call and a custom tool call in the history back under the names the model saw", () => {
    const request = read({
      tools: CODEX_TOOLS,
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "Echo, then patch." }] },
        {
          type: "function_call",
          call_id: "c1",
          name: "echo",
          namespace: "mcp__vf_0",
          arguments: '{"text":"hi"}',
        },
        { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "hi" }] },
        { type: "custom_tool_call", call_id: "c2", name: "apply_patch", input: "*** Begin Patch" },
        { type: "custom_tool_call_output", call_id: "c2", output: "Done!" },
      ],
    });
    expect(request.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Echo, then patch." }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "mcp__vf_0__echo", arguments: '{"text":"hi"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "c2",
            type: "function",
            function: { name: "apply_patch", arguments: '{"input":"*** Begin Patch"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "c2", content: "Done!" },
    ]);
  });

  it("says a custom tool call whose arguments are not its JSON form with the text as the model wrote it", () => {
    const request = read({ input: "Patch.", tools: CODEX_TOOLS });
    const whole = JSON.parse(responsesDialect.answer(calling(["apply_patch", "*** Begin Patch"]), request));
    expect(whole.output).toMatchObject([{ type: "custom_tool_call", input: "*** Begin Patch" }]);
  });
});
