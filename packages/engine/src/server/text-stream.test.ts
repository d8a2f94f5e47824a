import { describe, expect, it } from "vitest";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { TextStream } from "./text-stream.ts";

/** Feeds `text` byte by byte, then ends it with `cut` bytes of stop string; returns every delta. */
function feed(
  stream: TextStream,
  text: string,
  cut = 0,
): { deltas: string[]; end: ReturnType<TextStream["finish"]> } {
  const deltas = tokenizer.encode(text).map((byte) => stream.push(byte));
  return { deltas, end: stream.finish(cut) };
}

describe("a streamed choice's text", () => {
  it("releases each character once all its bytes are in", () => {
    const { deltas, end } = feed(new TextStream([], false), "añb");
    expect(deltas).toEqual(["a", "", "ñ", "b"]);
    expect(end.content).toBe("");
  });

  it("holds back what may be a stop string and never sends the stop string", () => {
    const stream = new TextStream(["END"], false);
    const { deltas, end } = feed(stream, "abEXEND", 3);
    expect(deltas.join("") + end.content).toBe("abEX");
    expect(deltas).toEqual(["a", "b", "", "EX", "", "", ""]);
  });

  it("sends the held-back bytes at the end when the choice stops for another reason", () => {
    const { deltas, end } = feed(new TextStream(["END"], false), "abEN");
    expect(deltas.join("")).toBe("ab");
    expect(end.content).toBe("EN");
  });

  it("stops streaming content at a tool call, and parses the calls at the end", () => {
    const stream = new TextStream([], true);
    const { deltas, end } = feed(
      stream,
      'Let me add. <tool_call>{"name":"add","arguments":{"a":1}}</tool_call>',
    );
    expect(deltas.join("")).toBe("Let me add. ");
    expect(end).toEqual({ content: "", toolCalls: [{ name: "add", arguments: '{"a":1}' }] });
  });

  it("sends a block that is not a valid tool call as content", () => {
    const { deltas, end } = feed(new TextStream([], true), "x <tool_call>not json</tool_call> y");
    expect(deltas.join("") + end.content).toBe("x <tool_call>not json</tool_call> y");
    expect(end.toolCalls).toEqual([]);
  });

  it("ignores special tokens", () => {
    const stream = new TextStream([], false);
    expect(stream.push(104)).toBe("h");
    expect(stream.push(tokenizer.eot)).toBe("");
    expect(stream.finish(0).content).toBe("");
  });
});
