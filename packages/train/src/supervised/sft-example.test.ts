import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE_MODEL_DIR, startEngineServer, tokenizer } from "@vf-rl/engine";
import { describe, expect, it } from "vitest";
import { DataFileError, readConversations } from "./sft-data.ts";
import { conversationItem, modelMessages, SftConversation } from "./sft-example.ts";

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

describe("a conversation that was offered tools", () => {
  const tools = [
    {
      type: "function" as const,
      function: {
        name: "calculate",
        description: "Evaluate an arithmetic expression.",
        parameters: { type: "object", properties: { expression: { type: "string" } } },
      },
    },
  ];
  const prompt = [
    { role: "system" as const, content: "Answer with a number." },
    { role: "user" as const, content: "What is 6 * 7?" },
  ];
  const reply = {
    role: "assistant" as const,
    content: null,
    tool_calls: [
      {
        id: "c1",
        type: "function" as const,
        function: { name: "calculate", arguments: '{"expression":"6 * 7"}' },
      },
    ],
  };

  it("is trained on the prompt the engine's server renders for the same messages and tools", async () => {
    const server = await startEngineServer({ checkpoint: BASE_MODEL_DIR, modelName: "base" });
    try {
      const response = await fetch(`${server.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "base",
          messages: prompt,
          tools,
          max_tokens: 1,
          return_token_ids: true,
        }),
      });
      const served = ((await response.json()) as { prompt_token_ids: number[] }).prompt_token_ids;
      const conversation = SftConversation.parse({ messages: [...prompt, reply], tools });
      const item = conversationItem(modelMessages(conversation));
      expect(item.tokens.slice(0, served.length)).toEqual(served);
      expect(item.mask.slice(0, served.length).every((m) => m === 0)).toBe(true);
      expect(tokenizer.decode(item.tokens.filter((_, i) => item.mask[i] === 1))).toBe(
        '<tool_call>{"name":"calculate","arguments":{"expression":"6 * 7"}}</tool_call><|eot|>',
      );
    } finally {
      await server.close();
    }
  });

  it("keeps its tools when read from JSONL, as vf eval --export-sft writes them", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "vf-sft-tools-")), "data.jsonl");
    await writeFile(path, `${JSON.stringify({ messages: [...prompt, reply], tools })}\n`);
    const [conversation] = await readConversations(path);
    const system = modelMessages(conversation!)[0]!;
    expect(system.content).toMatch(/^Answer with a number\.\n\n# Tools\n/);
    expect(system.content).toContain(
      '{"name":"calculate","description":"Evaluate an arithmetic expression."',
    );
  });
});
