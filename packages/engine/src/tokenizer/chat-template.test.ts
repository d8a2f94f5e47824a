import { describe, expect, it } from "vitest";
import { type ChatMessageInput, parseToolCalls, renderChat } from "./chat-template.ts";
import { tokenizer } from "./tokenizer.ts";

const conversation: ChatMessageInput[] = [
  { role: "system", content: "You reverse text." },
  { role: "user", content: "abc" },
  {
    role: "assistant",
    content: "Let me check.",
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "reverse", arguments: '{"text":"abc"}' } },
    ],
  },
  { role: "tool", tool_call_id: "call_1", content: "cba" },
  { role: "assistant", content: [{ type: "text", text: "cba" }] },
  { role: "user", content: "thanks" },
];

describe("renderChat", () => {
  it("renders each message as role marker, content bytes, end of turn", () => {
    const ids = renderChat([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
    expect(ids).toEqual([
      tokenizer.bos,
      tokenizer.special("<|user|>"),
      104,
      105,
      tokenizer.eot,
      tokenizer.special("<|assistant|>"),
    ]);
  });

  it("is prefix-monotonic: turns 1..k render as an exact prefix of turns 1..k+1", () => {
    for (let k = 1; k < conversation.length; k++) {
      const shorter = renderChat(conversation.slice(0, k));
      const longer = renderChat(conversation.slice(0, k + 1));
      expect(longer.slice(0, shorter.length)).toEqual(shorter);
    }
  });

  it("is prefix-monotonic with the generation prompt before every assistant turn", () => {
    conversation.forEach((message, k) => {
      if (message.role !== "assistant") return;
      const prompt = renderChat(conversation.slice(0, k), { addGenerationPrompt: true });
      const withReply = renderChat(conversation.slice(0, k + 1));
      expect(withReply.slice(0, prompt.length)).toEqual(prompt);
    });
  });

  it("writes tool calls after the content in the documented form", () => {
    const text = tokenizer.decode(renderChat(conversation.slice(2, 3)));
    expect(text).toBe(
      '<|bos|><|assistant|>Let me check.<tool_call>{"name":"reverse","arguments":{"text":"abc"}}</tool_call><|eot|>',
    );
  });

  it("rejects a message with an unknown role", () => {
    expect(() => renderChat([{ role: "narrator", content: "x" } as never])).toThrow(/role/);
  });
});

describe("parseToolCalls", () => {
  it("reads back the tool calls renderChat wrote", () => {
    const text = 'Let me check.<tool_call>{"name":"reverse","arguments":{"text":"abc"}}</tool_call>';
    expect(parseToolCalls(text)).toEqual({
      content: "Let me check.",
      toolCalls: [{ name: "reverse", arguments: '{"text":"abc"}' }],
    });
  });

  it("leaves a malformed block in the content", () => {
    const text = "<tool_call>{not json}</tool_call> done";
    expect(parseToolCalls(text)).toEqual({ content: text, toolCalls: [] });
  });
});
