// The raw JSON POST every OpenAI client has (postJson), for server fields the typed APIs lack: what it
// sends, what it retries, and what it hands back for the caller to word. The chat calls' retries and
// errors, which it shares, are in model-clients.contract.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { EndpointUnreachableError, ModelHttpError } from "../errors.ts";
import { type ScriptedServerOptions, startScriptedServer } from "../testing/index.ts";
import { OpenAIModelClient } from "./openai-model-client.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function setup(options: ScriptedServerOptions = {}, apiKey = "EMPTY") {
  const server = await startScriptedServer(options);
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey, retryDelaySeconds: 0.005 });
  opened.push(client, server);
  return { server, client };
}

const probe = {
  model: "scripted",
  messages: [{ role: "user", content: "Sort: pear, Fig." }],
  max_tokens: 1,
  return_token_ids: true,
};

describe("OpenAIEndpointClient.postJson", () => {
  it("sends the body as given to the path under the base URL, with the key, and returns the answer's body", async () => {
    const { server, client } = await setup({ apiKey: "sk-teacher" }, "sk-teacher");
    const answer = await client.postJson("/chat/completions", probe);
    expect(server.apis).toEqual(["openai_chat_completions"]);
    expect(server.bodies).toEqual([probe]);
    expect(server.headers[0]!.authorization).toBe("Bearer sk-teacher");
    // vLLM's fields come back as the server sent them
    expect(answer.type).toBe("answer");
    const body = (answer as { body: { prompt_token_ids?: unknown } }).body;
    expect(Array.isArray(body.prompt_token_ids) && body.prompt_token_ids.length > 0).toBe(true);
  });

  it("asks a busy server again, and returns the answer that follows", async () => {
    const { server, client } = await setup({
      reply: (_request, index) =>
        index < 2 ? { type: "error", status: index === 0 ? 503 : 429, message: "warming up" } : "ok",
    });
    const answer = await client.postJson("/chat/completions", probe);
    expect(server.bodies).toEqual([probe, probe, probe]);
    expect(answer).toMatchObject({ type: "answer", body: { choices: [{ message: { content: "ok" } }] } });
  });

  it("returns a refusal with its status and the server's message, asked once", async () => {
    const { server, client } = await setup({
      reply: () => ({
        type: "error",
        status: 400,
        message: "prompt_logprobs is not supported",
        format: "flat",
      }),
    });
    const answer = await client.postJson("/chat/completions", probe);
    expect(answer).toEqual({ type: "refusal", status: 400, message: "prompt_logprobs is not supported" });
    expect(server.bodies).toHaveLength(1);
  });

  it("throws ModelHttpError with the status and the server's message when it stays busy", async () => {
    const { server, client } = await setup({
      reply: () => ({ type: "error", status: 502, message: "upstream gone" }),
    });
    const error = await client.postJson("/chat/completions", probe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect((error as ModelHttpError).status).toBe(502);
    expect((error as Error).message).toContain(
      `${server.url}/chat/completions answered HTTP 502 (upstream gone)`,
    );
    expect(server.bodies).toHaveLength(4); // the first try and the default 3 retries
  });

  it("throws EndpointUnreachableError naming the URL when nothing listens there", async () => {
    const server = await startScriptedServer();
    await server.close();
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    opened.push(client);
    const error = await client.postJson("/completions", { prompt: [1, 2] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointUnreachableError);
    expect((error as Error).message).toContain(`cannot reach the model endpoint ${server.url}/completions`);
  });
});
