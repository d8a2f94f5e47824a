import { describe, expect, it } from "vitest";
import { tokenizer } from "./tokenizer.ts";

describe("the byte tokenizer", () => {
  it("has 256 byte tokens and 7 special tokens", () => {
    expect(tokenizer.vocabSize).toBe(263);
    expect([tokenizer.bos, tokenizer.eot, tokenizer.pad]).toEqual([256, 257, 258]);
    expect(tokenizer.special("<|assistant|>")).toBe(261);
  });

  it("round-trips any text through its UTF-8 bytes", () => {
    const text = "héllo, 世界 🌍\n\ttabs";
    const ids = tokenizer.encode(text);
    expect(ids.slice(0, 3)).toEqual([104, 0xc3, 0xa9]);
    expect(tokenizer.decode(ids)).toBe(text);
  });

  it("keeps special-token strings in text as bytes unless asked", () => {
    expect(tokenizer.encode("<|eot|>")).toHaveLength(7);
    expect(tokenizer.encode("a<|eot|>b", { allowSpecial: true })).toEqual([97, tokenizer.eot, 98]);
  });

  it("writes special tokens by name, or skips them", () => {
    const ids = [tokenizer.bos, 104, 105, tokenizer.eot];
    expect(tokenizer.decode(ids)).toBe("<|bos|>hi<|eot|>");
    expect(tokenizer.decode(ids, { skipSpecial: true })).toBe("hi");
  });

  it("decodes invalid UTF-8 to replacement characters instead of failing", () => {
    expect(tokenizer.decode([0xff, 104, 0xe4, 0xb8])).toBe("\ufffdh\ufffd");
  });

  it("rejects ids outside the vocabulary with a clear error", () => {
    expect(() => tokenizer.decode([300])).toThrow(/token id 300 is not in the byte tokenizer's vocabulary/);
  });
});
