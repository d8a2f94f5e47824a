import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.ts";
import { loadEndpointRegistry, parseEndpointRegistry } from "./endpoint-registry.ts";

const REGISTRY = `
[[endpoint]]
endpoint_id = "gpt-4.1-mini"
model = "gpt-4.1-mini"
url = "https://api.openai.com/v1"
key = "OPENAI_API_KEY"

[[endpoint]]
endpoint_id = "qwen3"
model = "Qwen/Qwen3-0.6B"
api_base_url = "http://10.0.0.1:8000/v1"
api_client_type = "openai_chat_completions"
extra_headers = { X-Team = "rl" }

[[endpoint]]
endpoint_id = "qwen3"
model = "Qwen/Qwen3-0.6B"
url = "http://10.0.0.2:8000/v1"
`;

function errorOf(toml: string): ConfigError {
  try {
    parseEndpointRegistry(toml, "configs/endpoints.toml");
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("endpoint registry", () => {
  it("reads rows, aliases and replicas in file order", () => {
    const registry = parseEndpointRegistry(REGISTRY);
    expect(registry.ids()).toEqual(["gpt-4.1-mini", "qwen3"]);
    expect(registry.get("gpt-4.1-mini")).toEqual({
      endpointId: "gpt-4.1-mini",
      model: "gpt-4.1-mini",
      replicas: [
        {
          type: "openai_chat_completions",
          baseUrl: "https://api.openai.com/v1",
          apiKeyVar: "OPENAI_API_KEY",
          headers: {},
        },
      ],
    });
    expect(registry.get("qwen3")!.replicas).toEqual([
      {
        type: "openai_chat_completions",
        baseUrl: "http://10.0.0.1:8000/v1",
        apiKeyVar: null,
        headers: { "X-Team": "rl" },
      },
      { type: "openai_chat_completions", baseUrl: "http://10.0.0.2:8000/v1", apiKeyVar: null, headers: {} },
    ]);
    expect(registry.get("unknown")).toBeUndefined();
  });

  it("gives an empty registry for an empty file", () => {
    expect(parseEndpointRegistry("").ids()).toEqual([]);
  });

  it("names the file, row and key of a missing key", () => {
    const error = errorOf(
      `[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\nurl = "u"\n\n[[endpoint]]\nendpoint_id = "b"\nurl = "u"\n`,
    );
    expect(error.message).toBe(
      'configs/endpoints.toml: [[endpoint]] row 2 (endpoint_id "b"): key "model" is missing: add model = "<model id the server serves>"',
    );
    expect(error.key).toBe("model");
  });

  it("requires a url under either name", () => {
    expect(errorOf(`[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\n`).message).toContain(
      'key "url" is missing',
    );
  });

  it("rejects an alias used beside its key", () => {
    const error = errorOf(
      `[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\nurl = "u"\nheaders = {}\nextra_headers = {}\n`,
    );
    expect(error.message).toContain('both "headers" and its alias "extra_headers" are set: keep one');
  });

  it("reads each client type, and keeps each row's own", () => {
    const types = parseEndpointRegistry(`
[[endpoint]]
endpoint_id = "claude"
model = "claude-sonnet-5-5"
url = "https://api.anthropic.com"
key = "ANTHROPIC_API_KEY"
type = "anthropic_messages"

[[endpoint]]
endpoint_id = "gpt"
model = "gpt-4.1-mini"
url = "https://api.openai.com/v1"
api_client_type = "openai_responses"

[[endpoint]]
endpoint_id = "base"
model = "Qwen/Qwen3-0.6B-Base"
url = "http://10.0.0.1:8000/v1"
type = "openai_completions"
`);
    expect(types.ids().map((id) => types.get(id)!.replicas[0]!.type)).toEqual([
      "anthropic_messages",
      "openai_responses",
      "openai_completions",
    ]);
  });

  it("rejects unknown keys, the old client_type and unsupported types", () => {
    expect(errorOf(`[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\nurl = "u"\nkye = "K"\n`).message).toContain(
      'unknown key "kye"',
    );
    expect(
      errorOf(
        `[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\nurl = "u"\nclient_type = "openai_chat_completions"\n`,
      ).message,
    ).toContain('"client_type" was renamed');
    expect(
      errorOf(`[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\nurl = "u"\ntype = "renderer"\n`).message,
    ).toBe(
      'configs/endpoints.toml: [[endpoint]] row 1 (endpoint_id "a"): client type "renderer" is not supported by vf (token ids come from the chat API\'s vLLM fields): use one of openai_chat_completions, openai_completions, openai_responses, anthropic_messages',
    );
    expect(
      errorOf(`[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\nurl = "u"\napi_client_type = "claude"\n`)
        .message,
    ).toContain('"claude" is not a client type: use one of openai_chat_completions,');
  });

  it("rejects header values that are not strings and replicas naming different models", () => {
    expect(
      errorOf(`[[endpoint]]\nendpoint_id = "a"\nmodel = "m"\nurl = "u"\nheaders = { X-N = 1 }\n`).message,
    ).toContain('key "headers" is invalid');
    expect(
      errorOf(
        `[[endpoint]]\nendpoint_id = "a"\nmodel = "m1"\nurl = "u"\n[[endpoint]]\nendpoint_id = "a"\nmodel = "m2"\nurl = "v"\n`,
      ).message,
    ).toContain('model "m2" differs from "m1"');
  });

  it("reports TOML syntax errors and unexpected top-level keys", () => {
    expect(errorOf(`[[endpoint]\n`).message).toMatch(
      /^configs\/endpoints\.toml is not valid TOML: .*: fix the syntax$/,
    );
    expect(errorOf(`[endpoints]\nx = 1\n`).message).toContain('unexpected top-level key "endpoints"');
  });

  it("loads a file, and treats a missing file as empty only when asked", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-endpoints-"));
    const path = join(dir, "endpoints.toml");
    await writeFile(path, REGISTRY);
    expect((await loadEndpointRegistry(path)).ids()).toEqual(["gpt-4.1-mini", "qwen3"]);
    const missing = join(dir, "nope.toml");
    expect((await loadEndpointRegistry(missing, { required: false })).ids()).toEqual([]);
    await expect(loadEndpointRegistry(missing)).rejects.toThrow(
      /cannot read the endpoint registry .*nope\.toml/,
    );
  });
});
