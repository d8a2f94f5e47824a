import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EngineServer, startEngineServer } from "./engine-server.ts";
import { randomModel, TEST_CONFIG } from "./test-support.ts";

let server: EngineServer;
let client: OpenAI;
const messages = [{ role: "user" as const, content: "hi" }];

beforeAll(async () => {
  server = await startEngineServer({ model: randomModel(), modelName: "tiny", maxBodyBytes: 64 * 1024 });
  client = new OpenAI({ baseURL: server.url, apiKey: "EMPTY", maxRetries: 0 });
});
afterAll(() => server.close());

/** Status and OpenAI error body of a raw request. */
async function raw(
  path: string,
  init: RequestInit,
): Promise<{ status: number; error: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, init);
  const body = (await response.json()) as { error: Record<string, unknown> };
  return { status: response.status, error: body.error };
}

/** The error a call through the SDK throws. */
async function apiError(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/** After each bad request, a good one must still be answered. */
async function stillServes(): Promise<void> {
  const response = await client.chat.completions.create({ model: "tiny", messages, max_tokens: 4 });
  expect(response.choices).toHaveLength(1);
}

describe("the engine server's answers to bad requests", () => {
  it("gives 404 for a model it does not serve", async () => {
    const error = await apiError(client.chat.completions.create({ model: "gpt-5", messages }));
    expect(error.status).toBe(404);
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain('serves "tiny"');
    await stillServes();
  });

  it("gives 400 naming the maximum context length for a prompt over the context", async () => {
    const long = [{ role: "user" as const, content: "x".repeat(TEST_CONFIG.maxSeqLen) }];
    const error = await apiError(client.chat.completions.create({ model: "tiny", messages: long }));
    expect(error.status).toBe(400);
    expect(error.code).toBe("context_length_exceeded");
    expect(error.message).toContain(`maximum context length is ${TEST_CONFIG.maxSeqLen} tokens`);
    const completion = await apiError(client.completions.create({ model: "tiny", prompt: "y".repeat(600) }));
    expect(completion.message).toContain("maximum context length");
    await stillServes();
  });

  it("gives 400 naming the field for a malformed body", async () => {
    const error = await apiError(client.chat.completions.create({ model: "tiny", messages: [] }));
    expect(error.status).toBe(400);
    expect(error.param).toBe("messages");
    const temperature = await apiError(
      client.chat.completions.create({ model: "tiny", messages, temperature: -1 }),
    );
    expect(temperature.param).toBe("temperature");
    const role = await raw("/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "tiny", messages: [{ role: "robot", content: "hi" }] }),
    });
    expect(role.status).toBe(400);
    expect(role.error.param).toBe("messages.0.role");
    await stillServes();
  });

  it("gives 400 for a body that is not JSON, and for what the engine cannot do", async () => {
    const notJson = await raw("/chat/completions", { method: "POST", body: "{model: tiny" });
    expect(notJson.status).toBe(400);
    expect(notJson.error.message).toMatch(/not valid JSON/);
    const penalty = await apiError(
      client.chat.completions.create({ model: "tiny", messages, presence_penalty: 0.5 }),
    );
    expect(penalty.message).toContain("presence_penalty is not supported");
    const image = await apiError(
      client.chat.completions.create({
        model: "tiny",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:," } }] }],
      }),
    );
    expect(image.message).toContain("reads text only");
    await stillServes();
  });

  it("gives 413 for a body over the size limit", async () => {
    const big = await raw("/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "tiny", messages: [{ role: "user", content: "z".repeat(100_000) }] }),
    });
    expect(big.status).toBe(413);
    expect(big.error.message).toContain("larger than this server's limit");
    // the same without a content-length: a streamed body is cut off as it arrives
    const streamed = await raw("/chat/completions", {
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("z".repeat(10_000)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await stillServes();
  });

  it("gives 404 for an unknown route and 405 for a wrong method", async () => {
    expect((await raw("/nope", { method: "GET" })).status).toBe(404);
    expect((await raw("/chat/completions", { method: "GET" })).status).toBe(405);
    await stillServes();
  });
});
