import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tokenizer } from "@vf-rl/engine";
import { describe, expect, it } from "vitest";
import { DataFileError, readConversations } from "./sft-data.ts";
import { conversationItem } from "./sft-example.ts";

describe("a conversation as a training sequence", () => {
  it("trains the assistant turns' text and end-of-turn marker, nothing else", () => {
    const item = conversationItem([
      { role: "system", content: "S" },
      { role: "user", content: "ab" },
      { role: "assistant", content: "ba" },
      { role: "user", content: "cd" },
      { role: "assistant", content: "dc" },
    ]);
    const trained = item.tokens.filter((_, i) => item.mask[i] === 1);
    const eot = tokenizer.eot;
    expect(trained).toEqual([...tokenizer.encode("ba"), eot, ...tokenizer.encode("dc"), eot]);
    expect(tokenizer.decode(item.tokens)).toBe(
      "<|bos|><|system|>S<|eot|><|user|>ab<|eot|><|assistant|>ba<|eot|><|user|>cd<|eot|><|assistant|>dc<|eot|>",
    );
  });
});

describe("reading conversations from JSONL", () => {
  const file = async (text: string): Promise<string> => {
    const path = join(await mkdtemp(join(tmpdir(), "vf-sft-data-")), "data.jsonl");
    await writeFile(path, text);
    return path;
  };
  const line = JSON.stringify({
    messages: [
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
    ],
  });

  it("reads one conversation per line, skipping blank lines", async () => {
    const conversations = await readConversations(await file(`${line}\n\n${line}\n`));
    expect(conversations).toHaveLength(2);
    expect(conversations[0]!.messages[1]).toEqual({ role: "assistant", content: "b" });
  });

  it("names the line and the problem of a bad line", async () => {
    const noAnswer = JSON.stringify({ messages: [{ role: "user", content: "a" }] });
    await expect(readConversations(await file(`${line}\n${noAnswer}\n`))).rejects.toThrow(
      /data\.jsonl:2: messages: has no assistant message/,
    );
    await expect(readConversations(await file(`${line}\n{oops\n`))).rejects.toThrow(
      /data\.jsonl:2 is not JSON/,
    );
    await expect(readConversations("/nowhere/data.jsonl")).rejects.toBeInstanceOf(DataFileError);
  });
});
