// What only the text-completions API does: the conversation rendered as one text prompt (verifiers'
// rendering by default, or a renderer of the server's own template), `logprobs: true` turned into the
// count this API takes, vLLM's per-choice token fields read into `tokens`, and images refused. The
// shared behaviour is in model-clients.contract.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import type { Messages } from "../messages/message.ts";
import { startScriptedServer } from "../testing/index.ts";
import { IM_END } from "../testing/scripted-tokens.ts";
import { OpenAICompletionsClient, type OpenAICompletionsClientOptions } from "./openai-completions-client.ts";
import { plainTextPrompt } from "./text-prompt.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function setup(options: Partial<OpenAICompletionsClientOptions> = {}) {
  const server = await startScriptedServer({ reply: () => "cba" });
  const client = new OpenAICompletionsClient({
    baseUrl: server.url,
    apiKey: "EMPTY",
    maxRetries: 0,
    ...options,
  });
  opened.push(client, server);
  return { server, client };
}

const conversation: Messages = [
  { role: "system", content: "Reverse the text." },
  { role: "user", content: "abc" },
];

describe("OpenAICompletionsClient", () => {
  it("sends the message texts joined by a blank line, as verifiers does", async () => {
    const { client, server } = await setup();
    const response = await client.chat({
      model: "base",
      messages: conversation,
      sampling: { max_completion_tokens: 8 },
    });
    expect(server.bodies[0]).toEqual({ model: "base", prompt: "Reverse the text.\n\nabc", max_tokens: 8 });
    expect(response.message).toEqual({ role: "assistant", content: "cba" });
  });

  it("uses the renderer it is given, for a server with its own chat template", async () => {
    const { client, server } = await setup({
      renderPrompt: (messages) =>
        `${messages.map((m) => `<|${m.role}|>${String(m.content)}`).join("")}<|assistant|>`,
    });
    await client.chat({ model: "base", messages: conversation, sampling: {} });
    expect(server.bodies[0]!.prompt).toBe("<|system|>Reverse the text.<|user|>abc<|assistant|>");
  });

  it("asks for the sampled tokens' logprobs with logprobs: true, and reads vLLM's token fields", async () => {
    const { client, server } = await setup();
    const response = await client.chat({
      model: "base",
      messages: conversation,
      sampling: { logprobs: true },
    });
    expect(server.bodies[0]!.logprobs).toBe(0);
    expect(response.tokens!.promptIds).toEqual([...Buffer.from("Reverse the text.\n\nabc")]);
    expect(response.tokens!.completionIds).toEqual([...Buffer.from("cba"), IM_END]);
    expect(response.tokens!.completionLogprobs).toHaveLength(4);
    expect(response.usage).toEqual({ promptTokens: 22, completionTokens: 4 });
  });

  it("refuses a prompt with images, which text cannot carry", () => {
    expect(() =>
      plainTextPrompt([
        { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AA" } }] },
      ]),
    ).toThrow(/the completions API takes text only, and this prompt has an image/);
  });
});
