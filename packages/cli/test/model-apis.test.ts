// Every model API through the real vf binary: the same scripted model, spoken to over chat
// completions, the Responses API and Anthropic's Messages API, plays gsm8k-calculator (tool calls,
// results, the answer) and each run saves the same rollout records; text completions play a
// tool-free environment and refuse a tool one; a rejected key and an HTTP error read the same
// whatever the API.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEnvironment } from "@vf-env/gsm8k-calculator";
import { SYSTEM_PROMPT } from "@vf-env/reverse-text";
import { byPrompt, referenceReplies } from "@vf-rl/core/testing";
import { evalScripted } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TOOL_APIS = ["openai_chat_completions", "openai_responses", "anthropic_messages"] as const;
const ALL_APIS = [...TOOL_APIS, "openai_completions"] as const;

let outputs: string;
beforeAll(async () => {
  outputs = await mkdtemp(join(tmpdir(), "vf-apis-"));
});
afterAll(async () => {
  await rm(outputs, { recursive: true, force: true });
});

/** A saved row without what differs from run to run (timing, the run's own ids). */
function comparable(row: Record<string, unknown>): Record<string, unknown> {
  const { timing: _timing, ...rest } = row;
  return rest;
}

describe("vf eval over each model API", () => {
  const rowsByApi = new Map<string, Array<Record<string, unknown>>>();

  for (const api of TOOL_APIS) {
    it(`plays gsm8k-calculator with tools over ${api}, recording usage`, async () => {
      const result = await evalScripted("gsm8k-calculator", {
        server: { reply: await referenceReplies(await loadEnvironment({ numEval: 10 })) },
        flags: ["--api-client-type", api, "-n", "3", "-r", "1", "-s", "-o", join(outputs, api)],
      });
      expect(result.stderr).not.toMatch(/^error:/m);
      expect(result.code).toBe(0);
      expect(new Set(result.apis)).toEqual(new Set([api]));
      expect(result.requests[0]!.tools![0]!.function.name).toBe("calculate");
      // Tool calls, their results and the boxed answer: the top reward.
      expect(result.summary.avg_reward).toBe(1);
      expect(result.summary.avg_metrics.calculate_calls).toBeGreaterThan(1);
      expect(result.summary.avg_error).toBe(0);
      expect(result.summary.usage.input_tokens).toBeGreaterThan(result.summary.usage.output_tokens);
      expect(result.summary.usage.output_tokens).toBeGreaterThan(0);
      const text = await readFile(join(result.summary.run_dir, "results.jsonl"), "utf8");
      const rows = text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(rows).toHaveLength(3);
      expect(rows[0]!.completion).toContainEqual(expect.objectContaining({ role: "tool" }));
      // Rows are saved as rollouts finish, in an order a loaded machine may change.
      const byExample = (a: Record<string, unknown>, b: Record<string, unknown>) =>
        Number(a.example_id) - Number(b.example_id);
      rowsByApi.set(api, rows.map(comparable).sort(byExample));
    });
  }

  it("saves the same rollout records whatever the API", () => {
    const [first, ...others] = TOOL_APIS.map((api) => rowsByApi.get(api));
    expect(first).toBeDefined();
    for (const rows of others) expect(rows).toEqual(first);
  });

  it("plays a tool-free environment over text completions, the prompt rendered as text", async () => {
    // The text prompt is the system prompt, a blank line, then the passage.
    const head = `${SYSTEM_PROMPT}\n\n`;
    const reverse = byPrompt((messages) => {
      const prompt = String(messages[0]!.content);
      const passage = prompt.startsWith(head) ? prompt.slice(head.length) : "";
      return `<reversed_text>\n${[...passage].reverse().join("")}\n</reversed_text>`;
    });
    const result = await evalScripted("reverse-text", {
      server: { reply: reverse },
      flags: ["--api-client-type", "openai_completions", "-n", "3", "-r", "1"],
    });
    expect(result.code).toBe(0);
    expect(new Set(result.apis)).toEqual(new Set(["openai_completions"]));
    expect(result.requests[0]!.messages).toHaveLength(1);
    expect(String(result.requests[0]!.messages[0]!.content).startsWith(head)).toBe(true);
    expect(result.summary.avg_reward).toBeGreaterThan(0.9);
    expect(result.summary.usage.output_tokens).toBeGreaterThan(0);
  });

  it("refuses a tool environment over text completions, naming the client types that have tools", async () => {
    const result = await evalScripted("gsm8k-calculator", {
      server: {},
      flags: ["--api-client-type", "openai_completions", "-n", "2", "-r", "1", "--max-retries", "0"],
    });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(
      /the completions API has no tools, and this environment offers calculate: use the client type openai_chat_completions, openai_responses or anthropic_messages/,
    );
    expect(result.requests).toHaveLength(0);
  });

  for (const api of ALL_APIS) {
    it(`stops on a rejected key and records an HTTP error the same way over ${api}`, async () => {
      const rejected = await evalScripted("reverse-text", {
        server: { apiKey: "sk-right" },
        flags: ["--api-client-type", api, "-k", "MY_KEY"],
        env: { MY_KEY: "sk-wrong" },
      });
      expect(rejected.code).toBe(1);
      expect(rejected.stderr).toMatch(
        /rejected the API key \(HTTP 401: Incorrect API key provided\.\): check the key in MY_KEY/,
      );
      expect(rejected.requests).toHaveLength(0);

      const failing = await evalScripted("reverse-text", {
        server: { reply: () => ({ type: "error", status: 400, message: "temperature must be at most 2" }) },
        flags: ["--api-client-type", api, "-n", "2", "-r", "1", "--max-retries", "0"],
      });
      expect(failing.stdout + failing.stderr).toMatch(/answered HTTP 400 \(temperature must be at most 2\)/);
      expect(failing.requests).toHaveLength(2);
      expect(new Set(failing.apis)).toEqual(new Set([api]));
    });
  }
});
