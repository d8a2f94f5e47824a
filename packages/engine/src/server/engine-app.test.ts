// The engine server's routes in process (hono's app.request), and on a real socket where what is
// tested is the connection itself: a client that goes away stops its generation.
import { afterAll, describe, expect, it } from "vitest";
import { serveApp } from "../http/serve-app.ts";
import { createEngineApp } from "./engine-app.ts";
import {
  type Generated,
  type GenerateRequest,
  GenerationCancelledError,
  GenerationScheduler,
} from "./generation-scheduler.ts";
import { randomModel, TEST_CONFIG } from "./test-support.ts";

/** A real scheduler that keeps every generation it starts, to see how each ended. */
class WatchedScheduler extends GenerationScheduler {
  readonly runs: Promise<Generated>[] = [];

  override generate(request: GenerateRequest): Promise<Generated> {
    const run = super.generate(request);
    this.runs.push(run);
    return run;
  }
}

const scheduler = new WatchedScheduler(randomModel());
afterAll(() => scheduler.close());
const lines: string[] = [];
const app = createEngineApp({
  ctx: { scheduler, config: TEST_CONFIG, modelName: "tiny", defaults: { logprobsMode: "processed" } },
  maxBodyBytes: 1024,
  updateWeights: async () => {},
  weightDir: () => null,
  log: (line) => lines.push(line),
});

/** Status and OpenAI error of an in-process request. */
async function error(
  path: string,
  init?: RequestInit,
): Promise<{ status: number; error: Record<string, unknown> }> {
  const response = await app.request(path, init);
  return {
    status: response.status,
    error: ((await response.json()) as { error: Record<string, unknown> }).error,
  };
}

const post = (body: RequestInit["body"], headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  body,
  headers: { "content-type": "application/json", ...headers },
});

describe("the engine server's routes", () => {
  it("answers /health and /v1/models, also with a trailing slash", async () => {
    expect(await (await app.request("/health")).json()).toEqual({ status: "ok" });
    const models = (await (await app.request("/v1/models/")).json()) as { data: Record<string, unknown>[] };
    expect(models.data).toEqual([
      {
        id: "tiny",
        object: "model",
        created: 0,
        owned_by: "vf",
        root: null,
        max_model_len: TEST_CONFIG.maxSeqLen,
      },
    ]);
  });

  it("tells an unknown route (404) from a wrong method (405), in OpenAI's error shape", async () => {
    const missing = await error("/v1/embeddings", post("{}"));
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ type: "invalid_request_error", param: null, code: null });
    expect(missing.error.message).toMatch(
      /^no route \/v1\/embeddings: this server answers \/v1\/chat\/completions/,
    );
    const method = await error("/v1/chat/completions");
    expect(method.status).toBe(405);
    expect(method.error.message).toBe("GET is not allowed on /v1/chat/completions: use POST");
  });

  it("refuses a body over the cap (413), declared or streamed, and one that is empty or not JSON (400)", async () => {
    const big = JSON.stringify({ model: "tiny", prompt: "z".repeat(2000) });
    const declared = await error("/v1/completions", post(big));
    expect(declared.status).toBe(413);
    expect(declared.error).toMatchObject({ code: "request_too_large", type: "invalid_request_error" });
    expect(declared.error.message).toBe(
      "the request body is larger than this server's limit of 1024 bytes: send a smaller request (or start the server with a larger maxBodyBytes)",
    );
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode("z".repeat(500)));
        controller.close();
      },
    });
    const streamed = await error("/v1/completions", { ...post(chunks), duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await error("/v1/completions", post(""))).error.message).toBe(
      "the request body is empty: send a JSON object",
    );
    const notJson = await error("/update_weights", post("{weight_dir"));
    expect(notJson.status).toBe(400);
    expect(notJson.error.message).toMatch(/^the request body is not valid JSON \(.*\): send a JSON object$/);
    expect(lines).toEqual([]); // refusals are the client's: nothing for the server's log
  });
});

describe("a client that goes away", () => {
  it("stops its generation, streamed or not, and the server goes on serving", async () => {
    const served = await serveApp(app, { port: 0, host: "127.0.0.1" });
    try {
      const long = { model: "tiny", prompt: "hi", max_tokens: 400, ignore_eos: true };
      // streamed: the client reads the first event, then hangs up
      const streamedClient = new AbortController();
      const streamed = await fetch(`${served.origin}/v1/completions`, {
        ...post(JSON.stringify({ ...long, stream: true })),
        signal: streamedClient.signal,
      });
      expect(streamed.headers.get("content-type")).toBe("text/event-stream");
      await streamed.body!.getReader().read();
      streamedClient.abort();
      await expect(scheduler.runs[0]).rejects.toBeInstanceOf(GenerationCancelledError);
      // whole: the client hangs up while the answer is generated
      const wholeClient = new AbortController();
      const whole = fetch(`${served.origin}/v1/completions`, {
        ...post(JSON.stringify(long)),
        signal: wholeClient.signal,
      }).catch(() => null);
      while (scheduler.runs.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      wholeClient.abort();
      await whole;
      await expect(scheduler.runs[1]).rejects.toBeInstanceOf(GenerationCancelledError);
      const after = await fetch(
        `${served.origin}/v1/completions`,
        post(JSON.stringify({ ...long, max_tokens: 3 })),
      );
      expect(((await after.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(
        3,
      );
      expect(lines).toEqual([]); // a cancelled generation is no internal error
    } finally {
      await served.close();
    }
  });
});
