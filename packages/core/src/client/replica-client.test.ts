import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, MissingKeyError } from "../errors.ts";
import { fixedReply, startScriptedServer } from "../testing/index.ts";
import { parseEndpointRegistry } from "./endpoint-registry.ts";
import { clientForEndpoint, createReplicaClient, ReplicaClient } from "./replica-client.ts";
import { resolveApiKey, resolveModel } from "./resolve-model.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

const registry = parseEndpointRegistry(
  `
[[endpoint]]
endpoint_id = "qwen3"
model = "Qwen/Qwen3-0.6B"
url = "http://10.0.0.1:8000/v1"
key = "VLLM_KEY"
headers = { X-Team = "rl" }
`,
  "configs/endpoints.toml",
);

describe("resolveModel", () => {
  it("resolves an alias through the registry, adding command-line headers", () => {
    expect(resolveModel({ model: "qwen3", registry, headers: { "X-Run": "7" } })).toEqual({
      model: "Qwen/Qwen3-0.6B",
      endpointId: "qwen3",
      endpoints: [
        {
          type: "openai_chat_completions",
          baseUrl: "http://10.0.0.1:8000/v1",
          apiKeyVar: "VLLM_KEY",
          headers: { "X-Team": "rl", "X-Run": "7" },
        },
      ],
    });
  });

  it("treats anything else as a literal model id at the base URL", () => {
    expect(
      resolveModel({
        model: "gpt-4.1-mini",
        registry,
        baseUrl: "https://api.openai.com/v1",
        apiKeyVar: "OPENAI_API_KEY",
      }),
    ).toEqual({
      model: "gpt-4.1-mini",
      endpointId: null,
      endpoints: [
        {
          type: "openai_chat_completions",
          baseUrl: "https://api.openai.com/v1",
          apiKeyVar: "OPENAI_API_KEY",
          headers: {},
        },
      ],
    });
  });

  it("lets -b, -k and the client type override an alias's rows, as verifiers' flags do", () => {
    expect(
      resolveModel({
        model: "qwen3",
        registry,
        baseUrl: "http://127.0.0.1:9000/v1",
        apiKeyVar: "OTHER_KEY",
        type: "openai_responses",
      }).endpoints,
    ).toEqual([
      {
        type: "openai_responses",
        baseUrl: "http://127.0.0.1:9000/v1",
        apiKeyVar: "OTHER_KEY",
        headers: { "X-Team": "rl" },
      },
    ]);
  });

  it("says what to do when a literal model id has no base URL", () => {
    expect(() => resolveModel({ model: "llama", registry })).toThrow(ConfigError);
    expect(() => resolveModel({ model: "llama", registry })).toThrow(
      /model "llama" is not an endpoint_id in configs\/endpoints\.toml and has no base URL: give the base URL/,
    );
  });
});

describe("resolveApiKey", () => {
  it("reads the named variable, and gives EMPTY when none is named", () => {
    expect(resolveApiKey("MY_KEY", { MY_KEY: "sk-1" })).toBe("sk-1");
    expect(resolveApiKey(null, {})).toBe("EMPTY");
  });

  it("throws MissingKeyError naming an unset or empty variable", () => {
    expect(() => resolveApiKey("MY_KEY", {})).toThrow(MissingKeyError);
    expect(() => resolveApiKey("MY_KEY", { MY_KEY: "" })).toThrow(/MY_KEY is not set/);
    expect(() =>
      clientForEndpoint(
        { type: "anthropic_messages", baseUrl: "http://x", apiKeyVar: "NOPE_KEY", headers: {} },
        { env: {} },
      ),
    ).toThrow(MissingKeyError);
  });
});

describe("ReplicaClient", () => {
  it("uses the replicas in turn, each with its key and headers", async () => {
    const first = await startScriptedServer({ reply: fixedReply("first"), apiKey: "k1" });
    const second = await startScriptedServer({ reply: fixedReply("second") });
    opened.push(first, second);
    const replicas = parseEndpointRegistry(`
[[endpoint]]
endpoint_id = "pair"
model = "scripted"
url = "${first.url}"
key = "FIRST_KEY"
headers = { X-Replica = "1" }

[[endpoint]]
endpoint_id = "pair"
model = "scripted"
url = "${second.url}"
`);
    const client = createReplicaClient(resolveModel({ model: "pair", registry: replicas }), {
      env: { FIRST_KEY: "k1" },
    });
    opened.push(client);
    expect(client.baseUrl).toBe(`${first.url},${second.url}`);
    const answers: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await client.chat({
        model: "scripted",
        messages: [{ role: "user", content: "hi" }],
        sampling: {},
      });
      answers.push(response.message.content);
    }
    expect(answers).toEqual(["first", "second", "first", "second"]);
    expect(first.headers[0]!["x-replica"]).toBe("1");
    expect(second.headers[0]!.authorization).toBe("Bearer EMPTY");
  });

  it("hands out one replica per next() call, round-robin", () => {
    const a = { baseUrl: "a", chat: () => Promise.reject(new Error("unused")) };
    const b = { baseUrl: "b", chat: () => Promise.reject(new Error("unused")) };
    const client = new ReplicaClient([a, b]);
    expect([client.next(), client.next(), client.next()]).toEqual([a, b, a]);
    expect(() => new ReplicaClient([])).toThrow(/at least one client/);
  });
});
