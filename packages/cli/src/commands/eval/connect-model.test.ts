// -p/--provider: each shorthand reaches the base URL with the key variable that verifiers' `-p`
// gives it (PROVIDER_CONFIGS in verifiers/scripts/eval.py) and `vf eval --help` lists; -b, -k and
// --api-client-type override it one by one. `-p builtin` is served in process: model-flags.test.ts
// runs it through the binary.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEndpointRegistry } from "@vf-rl/core/client";
import { describe, expect, it } from "vitest";
import { resolveSpecModel } from "./connect-model.ts";
import { providersHelp } from "./eval-command.ts";
import { EvalSpec } from "./eval-spec.ts";

const chat = "openai_chat_completions";

/** Provider, base URL, key variable and API, as verifiers documents them. */
const DOCUMENTED = [
  ["openai", "https://api.openai.com/v1", "OPENAI_API_KEY", chat],
  ["anthropic", "https://api.anthropic.com", "ANTHROPIC_API_KEY", "anthropic_messages"],
  ["openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", chat],
  ["prime", "https://api.pinference.ai/api/v1", "PRIME_API_KEY", chat],
  ["deepseek", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY", chat],
  ["minimax", "https://api.minimax.chat/v1", "MINIMAX_API_KEY", chat],
  ["glm", "https://open.bigmodel.cn/api/paas/v4", "GLM_API_KEY", chat],
  ["vllm", "http://localhost:8000/v1", "VLLM_API_KEY", chat],
  ["local", "http://localhost:8000/v1", "VLLM_API_KEY", chat],
] as const;

/** `vf eval reverse-text -m some-model` with these flags. */
const spec = (flags: Record<string, unknown>) =>
  EvalSpec.parse({ envId: "reverse-text", model: "some-model", ...flags });

describe("-p/--provider", () => {
  it.each(DOCUMENTED)("-p %s calls %s with the key in %s over %s", (provider, baseUrl, key, type) => {
    const resolved = resolveSpecModel(spec({ provider }), undefined, { [key]: "sk-test" });
    expect(resolved.model).toBe("some-model");
    expect(resolved.endpoints).toEqual([{ type, baseUrl, apiKeyVar: key, headers: {} }]);
  });

  it.each(DOCUMENTED)("--help lists -p %s at %s with %s", (provider, baseUrl, key) => {
    const line = providersHelp()
      .split("\n")
      .find((l) => l.startsWith(`  ${provider} `));
    expect(line?.trim().split(/ +/).slice(0, 3)).toEqual([provider, baseUrl, key]);
  });

  it("lists builtin, vf's own model, which has no URL or key", () => {
    expect(providersHelp()).toMatch(/^ {2}builtin +vf's built-in model served locally/m);
  });

  it("calls a local server (vllm, local) without a key unless its variable is set", () => {
    for (const provider of ["vllm", "local"]) {
      expect(resolveSpecModel(spec({ provider }), undefined, {}).endpoints[0]!.apiKeyVar).toBeNull();
    }
    // an empty variable is no key either
    expect(
      resolveSpecModel(spec({ provider: "vllm" }), undefined, { VLLM_API_KEY: "" }).endpoints[0]!.apiKeyVar,
    ).toBeNull();
  });

  it("lets -b, -k and --api-client-type override the provider one by one", () => {
    const [url] = resolveSpecModel(
      spec({ provider: "anthropic", baseUrl: "http://127.0.0.1:9/v1" }),
      undefined,
      {},
    ).endpoints;
    expect(url).toMatchObject({
      baseUrl: "http://127.0.0.1:9/v1",
      apiKeyVar: "ANTHROPIC_API_KEY",
      type: "anthropic_messages",
    });
    const [key] = resolveSpecModel(
      spec({ provider: "openrouter", apiKeyVar: "MY_KEY" }),
      undefined,
      {},
    ).endpoints;
    expect(key).toMatchObject({ baseUrl: "https://openrouter.ai/api/v1", apiKeyVar: "MY_KEY", type: chat });
    const [type] = resolveSpecModel(
      spec({ provider: "openai", type: "openai_responses" }),
      undefined,
      {},
    ).endpoints;
    expect(type).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      apiKeyVar: "OPENAI_API_KEY",
      type: "openai_responses",
    });
  });

  it("calls OpenAI without -p or -b, at OPENAI_BASE_URL when it is set", () => {
    expect(resolveSpecModel(spec({}), undefined, {}).endpoints[0]).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      apiKeyVar: "OPENAI_API_KEY",
    });
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
    expect(resolveSpecModel(spec({}), undefined, env).endpoints[0]!.baseUrl).toBe("http://127.0.0.1:9/v1");
    // a provider is not OpenAI, whatever OPENAI_BASE_URL says
    expect(resolveSpecModel(spec({ provider: "deepseek" }), undefined, env).endpoints[0]!.baseUrl).toBe(
      "https://api.deepseek.com/v1",
    );
  });

  it("takes the place of an endpoint_id's URL, key variable and type, keeping its model", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-providers-"));
    try {
      const path = join(dir, "endpoints.toml");
      await writeFile(
        path,
        '[[endpoint]]\nendpoint_id = "qwen"\nmodel = "qwen/qwen3-8b"\nurl = "http://127.0.0.1:9/v1"\nkey = "LOCAL_KEY"\ntype = "openai_responses"\n',
      );
      const registry = await loadEndpointRegistry(path);
      const resolved = resolveSpecModel(spec({ model: "qwen", provider: "openrouter" }), registry, {});
      expect(resolved.model).toBe("qwen/qwen3-8b");
      expect(resolved.endpoints[0]).toMatchObject({
        baseUrl: "https://openrouter.ai/api/v1",
        apiKeyVar: "OPENROUTER_API_KEY",
        type: chat,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
