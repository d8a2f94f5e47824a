// The model flags of vf eval through the real binary: -p/--provider shorthands (URL, key variable,
// client type; -b and -k override them), -m <endpoint_id> of configs/endpoints.toml with its rows'
// `type`, -m <engine checkpoint folder>, and headers read from each rollout's state
// (--header-from-state, and headers_from_state in a config file).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEnvironment } from "@vf-env/gsm8k-calculator";
import { referenceReplies, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { BASE_MODEL_DIR, BUILTIN_MODEL_NAME } from "@vf-rl/engine";
import { runVf } from "@vf-rl/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-model-flags-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function scripted(options: Parameters<typeof startScriptedServer>[0] = {}): Promise<ScriptedServer> {
  const server = await startScriptedServer(options);
  servers.push(server);
  return server;
}

/** No provider key leaks in from the machine running the tests. */
const noKeys = { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", VLLM_API_KEY: "" };

describe("vf eval -p/--provider", () => {
  it("lists the providers and client types in --help", async () => {
    const help = await runVf(["eval", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/-p, --provider <name>/);
    expect(help.stdout).toMatch(/--api-client-type <type>/);
    expect(help.stdout).toMatch(/--header-from-state <name: key>/);
    expect(help.stdout).toMatch(
      /anthropic +https:\/\/api\.anthropic\.com +ANTHROPIC_API_KEY +anthropic_messages/,
    );
    for (const name of [
      "openai",
      "openrouter",
      "prime",
      "deepseek",
      "minimax",
      "glm",
      "vllm",
      "local",
      "builtin",
    ]) {
      expect(help.stdout).toMatch(new RegExp(`\\n  ${name} `));
    }
  });

  it("-p anthropic asks for ANTHROPIC_API_KEY before calling anything", async () => {
    const result = await runVf(["eval", "reverse-text", "-p", "anthropic", "-m", "claude-sonnet-5-5"], {
      env: noKeys,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /the API key variable ANTHROPIC_API_KEY is not set: export ANTHROPIC_API_KEY=/,
    );
  });

  it("-p anthropic speaks Anthropic's Messages API with its key, at the URL -b gives", async () => {
    const server = await scripted({ apiKey: "sk-ant-test" });
    const result = await runVf(
      [
        "eval",
        "reverse-text",
        "-p",
        "anthropic",
        "-m",
        "claude-sonnet-5-5",
        "-b",
        server.url,
        "-n",
        "2",
        "-r",
        "1",
        "--json",
      ],
      { env: { ...noKeys, ANTHROPIC_API_KEY: "sk-ant-test" } },
    );
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(server.apis).toEqual(["anthropic_messages", "anthropic_messages"]);
    expect(server.bodies[0]).toMatchObject({ model: "claude-sonnet-5-5", max_tokens: expect.any(Number) });
    expect(typeof server.bodies[0]!.system).toBe("string");
  });

  it("-p vllm needs no key for a local server, and --api-client-type overrides its API", async () => {
    const server = await scripted();
    const result = await runVf(
      [
        "eval",
        "reverse-text",
        "-p",
        "vllm",
        "-m",
        "m",
        "-b",
        server.url,
        "--api-client-type",
        "openai_responses",
        "-n",
        "2",
        "-r",
        "1",
        "--json",
      ],
      { env: noKeys },
    );
    expect(result.code).toBe(0);
    expect(server.apis).toEqual(["openai_responses", "openai_responses"]);
    expect(server.headers[0]!.authorization).toBe("Bearer EMPTY");
  });

  it("-p builtin serves vf's built-in model here, offline, and refuses a model id to call", async () => {
    const result = await runVf(["eval", "reverse-text", "-p", "builtin", "-n", "2", "-r", "1", "--json"], {
      env: noKeys,
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.model).toBe(BUILTIN_MODEL_NAME);
    expect(summary.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(summary.avg_error).toBe(0);
    expect(summary.usage.output_tokens).toBeGreaterThan(0);

    const refused = await runVf(["eval", "reverse-text", "-p", "builtin", "-m", "gpt-4.1-mini"], {
      env: noKeys,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /-p builtin serves vf's built-in model: drop -m and -b, or give -m an engine checkpoint folder/,
    );
  });

  it("names the providers and client types when given another", async () => {
    const provider = await runVf(["eval", "reverse-text", "-p", "azure", "-m", "x"]);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toMatch(
      /-p\/--provider "azure" is not a provider: use one of openai, anthropic, openrouter/,
    );
    const type = await runVf([
      "eval",
      "reverse-text",
      "-m",
      "x",
      "-b",
      "http://127.0.0.1:9/v1",
      "--api-client-type",
      "renderer",
    ]);
    expect(type.code).toBe(2);
    expect(type.stderr).toMatch(/client type "renderer" is not supported by vf/);
  });
});

describe("vf eval -m <endpoint_id>", () => {
  for (const type of ["anthropic_messages", "openai_responses", "openai_completions"] as const) {
    it(`calls the replicas of an endpoints.toml row with type = "${type}" over that API`, async () => {
      const replicas = [await scripted({ apiKey: "sk-row" }), await scripted({ apiKey: "sk-row" })];
      const project = join(dir, type);
      await mkdir(join(project, "configs"), { recursive: true });
      const row = (url: string) =>
        `[[endpoint]]\nendpoint_id = "judge"\nmodel = "served-model"\nurl = "${url}"\nkey = "ROW_KEY"\ntype = "${type}"\n`;
      await writeFile(join(project, "configs", "endpoints.toml"), replicas.map((r) => row(r.url)).join("\n"));
      const result = await runVf(["eval", "reverse-text", "-m", "judge", "-n", "4", "-r", "1", "--json"], {
        cwd: project,
        env: { ...noKeys, ROW_KEY: "sk-row" },
      });
      expect(result.stderr).not.toMatch(/^error:/m);
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary.model).toBe("served-model");
      // (Anthropic's SDK adds /v1 itself)
      const origin = (url: string) => url.replace(/\/v1$/, "");
      expect(summary.base_url.split(",").map(origin)).toEqual(replicas.map((r) => origin(r.url)));
      expect(summary.avg_error).toBe(0);
      // the groups take the replicas in turn, each spoken to over the row's API with the row's model
      for (const replica of replicas) {
        expect(replica.apis).toEqual([type, type]);
        expect(replica.bodies.map((body) => body.model)).toEqual(["served-model", "served-model"]);
      }
    });
  }
});

describe("vf eval -m <checkpoint folder>", () => {
  it("serves an engine checkpoint folder here and evaluates it, over chat or text completions", async () => {
    for (const api of ["openai_chat_completions", "openai_completions"]) {
      const result = await runVf(
        [
          "eval",
          "reverse-text",
          "-m",
          BASE_MODEL_DIR,
          "--api-client-type",
          api,
          "-n",
          "2",
          "-r",
          "1",
          "--json",
        ],
        { env: noKeys },
      );
      expect(result.stderr).not.toMatch(/^error:/m);
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary.model).toBe(BASE_MODEL_DIR);
      expect(summary.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(summary.avg_error).toBe(0);
      expect(summary.usage.output_tokens).toBeGreaterThan(0);
    }
  });

  it("finds a checkpoint an installed package ships, and records it by the name given", async () => {
    const shipped = "@vf-env/bash-arithmetic/warm-start"; // in node_modules, not a path from here
    const result = await runVf(["eval", "reverse-text", "-m", shipped, "-n", "2", "-r", "1", "--json"], {
      env: noKeys,
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ model: shipped, avg_error: 0 });
  });

  it("says so when -m names a folder that is not a checkpoint", async () => {
    const result = await runVf(["eval", "reverse-text", "-m", dir], { env: noKeys });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /is a folder but holds no engine weights \(config\.json and model\.safetensors, or a run or checkpoint of vf train or vf sft\)/,
    );
  });
});

describe("headers from the rollout's state", () => {
  it("sends --header-from-state headers, and X-Session-ID from the trajectory id by default", async () => {
    const server = await scripted({ reply: await referenceReplies(await loadEnvironment({ numEval: 10 })) });
    const result = await runVf([
      "eval",
      "gsm8k-calculator",
      "-m",
      "scripted",
      "-b",
      server.url,
      "-n",
      "3",
      "-r",
      "1",
      "--header-from-state",
      "X-Example: example_id",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const sent = server.headers.map((h) => ({ session: h["x-session-id"], example: h["x-example"] }));
    // Two model turns per rollout (the calculator, then the answer), each rollout its own session.
    const sessions = new Map<string, string[]>();
    for (const { session, example } of sent)
      sessions.set(String(session), [...(sessions.get(String(session)) ?? []), String(example)]);
    expect(sessions.size).toBe(3);
    expect([...sessions.values()].map((examples) => examples.length)).toEqual([2, 2, 2]);
    expect(new Set([...sessions.values()].map((examples) => new Set(examples).size))).toEqual(new Set([1]));
    expect(new Set(sent.map((s) => s.example))).toEqual(new Set(["0", "1", "2"]));
  });

  it("reads headers_from_state and the client type from a config file", async () => {
    const server = await scripted();
    const config = join(dir, "eval.toml");
    await writeFile(
      config,
      `model = "scripted"
api_base_url = "${server.url}"
api_client_type = "openai_responses"
headers_from_state = { X-Session-ID = "example_id", X-Task = "task" }

[[eval]]
id = "reverse-text"
num_examples = 2
rollouts_per_example = 1
`,
    );
    const result = await runVf(["eval", config, "--json"]);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(server.apis).toEqual(["openai_responses", "openai_responses"]);
    // The example ids, the user's mapping in place of the default trajectory id.
    const sessions = server.headers.map((h) => String(h["x-session-id"]));
    expect(sessions.every((id) => /^\d+$/.test(id))).toBe(true);
    expect(new Set(sessions).size).toBe(2);
    expect(server.headers.every((h) => typeof h["x-task"] === "string")).toBe(true);
  });
});
