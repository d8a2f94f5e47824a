// An HTTP 403 (the key is valid but not allowed here) is an error every later call would repeat: the
// call is not retried, and the run stops on it with the server's own words, instead of sending every
// remaining request to be refused the same way.
import { afterEach, describe, expect, it } from "vitest";
import { evaluate } from "../generate/evaluate.ts";
import { echoEnv } from "../generate/test-support.ts";
import { startScriptedServer } from "../testing/index.ts";
import { ApiKeyRejectedError } from "./fatal-model-error.ts";
import { OpenAIModelClient } from "./openai-model-client.ts";

// What OpenAI answers, with HTTP 403, to a key used from a country it does not serve.
const FORBIDDEN = "Country, region, or territory not supported";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

describe("a model endpoint that answers HTTP 403", () => {
  it("stops the run after the calls already in flight, without retrying, with the server's message", async () => {
    const server = await startScriptedServer({
      reply: () => ({
        type: "error",
        status: 403,
        message: FORBIDDEN,
        code: "unsupported_country_region_territory",
      }),
    });
    const client = new OpenAIModelClient({
      baseUrl: server.url,
      apiKey: "sk-elsewhere",
      apiKeyVar: "OPENAI_API_KEY",
      retryDelaySeconds: 0.001,
    });
    opened.push(client, server);

    const result = await evaluate(echoEnv(20), {
      clients: client,
      model: "scripted",
      numExamples: 20,
      rolloutsPerExample: 2,
      maxConcurrent: 2,
      maxRetries: 3,
    });

    expect(result.stoppedBy).toBeInstanceOf(ApiKeyRejectedError);
    expect(result.stoppedBy).toMatchObject({ status: 403, serverMessage: FORBIDDEN });
    expect(result.stoppedBy?.message).toBe(
      `the model endpoint ${server.url}/chat/completions rejected the API key (HTTP 403: ${FORBIDDEN}): check the key in OPENAI_API_KEY, or name the variable that holds the right key`,
    );
    // Of 40 rollouts, only the two in flight asked, each once: no retries, no more requests.
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(result.metadata.status).toBe("stopped");
    expect(result.records.length).toBeLessThanOrEqual(4);
    expect(result.records.every((record) => record.error !== null)).toBe(true);
  });
});
