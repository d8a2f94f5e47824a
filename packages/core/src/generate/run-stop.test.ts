// A run stops on the first error every later call would repeat, records what it started, and a
// resumed run (after the fix) runs those rollouts again; other failures never stop a run.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApiKeyRejectedError, ModelNotFoundError, QuotaExhaustedError } from "../client/fatal-model-error.ts";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { lastAssistantText } from "../messages/message.ts";
import { readRun } from "../results/read-run.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { lastUserText, type ReplyFn, type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { evaluate } from "./evaluate.ts";
import { generate } from "./generate.ts";

const KEY_MESSAGE =
  "Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.";
const rejectKey: ReplyFn = () => ({
  type: "error",
  status: 401,
  message: KEY_MESSAGE,
  code: "invalid_api_key",
});
const echo: ReplyFn = (request) => lastUserText(request.messages);

const makeEnv = () => {
  const env = new SingleTurnEnv({
    dataset: Dataset.fromRows(
      Array.from({ length: 10 }, (_, i) => ({ question: `echo ${i}`, answer: `echo ${i}` })),
    ),
    rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
      name: "exact",
    }),
  });
  return env;
};

const opened: Array<{ close(): Promise<void> }> = [];
let dir: string | undefined;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function serve(
  reply: ReplyFn,
  latencySeconds = 0,
): Promise<{ server: ScriptedServer; client: OpenAIModelClient }> {
  const server = await startScriptedServer({ reply, latencySeconds });
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "sk-bad", retryDelaySeconds: 0.001 });
  opened.push(client, server);
  return { server, client };
}

describe("a run stops on an error every call would repeat", () => {
  it.each([
    ["a rejected key", rejectKey, ApiKeyRejectedError, KEY_MESSAGE],
    [
      "an unknown model",
      () => ({
        type: "error",
        status: 404,
        message: "The model `gpt-9` does not exist.",
        code: "model_not_found",
      }),
      ModelNotFoundError,
      "The model `gpt-9` does not exist.",
    ],
    [
      "a spent quota",
      () => ({
        type: "error",
        status: 429,
        message: "You exceeded your current quota.",
        code: "insufficient_quota",
      }),
      QuotaExhaustedError,
      "You exceeded your current quota.",
    ],
  ] as const)(
    "stops on %s after the calls already in flight, keeping the server's message",
    async (_, reply, type, message) => {
      const { server, client } = await serve(reply as ReplyFn, 0.02);
      const env = makeEnv();
      const { inputs } = await env.inputs({ split: "eval", rolloutsPerExample: 3 });
      const result = await generate(env, inputs, {
        clients: client,
        model: "scripted",
        maxConcurrent: 4,
        maxRetries: 3,
        retryDelaySeconds: () => 0.001,
      });
      expect(result.stoppedBy).toBeInstanceOf(type);
      expect(result.stoppedBy?.message).toContain(message);
      expect(result.cancelled).toBe(false);
      expect(server.requests.length).toBeGreaterThanOrEqual(1);
      expect(server.requests.length).toBeLessThanOrEqual(4);
      // Only groups that had started are recorded, each whole.
      expect(result.records.length).toBeGreaterThanOrEqual(3);
      expect(result.records.length).toBeLessThanOrEqual(12);
      expect(result.records.length % 3).toBe(0);
      const failing = result.records.filter((record) => record.error?.error === type.name);
      expect(failing.length).toBeGreaterThanOrEqual(1);
      expect(failing[0]!.error?.message).toContain(message);
      for (const record of result.records) {
        expect([type.name, "RunStoppedError"]).toContain(record.error?.error);
      }
    },
  );

  it("cancels the rollouts in flight instead of waiting for them, and records them", async () => {
    // The first call is refused at once; the others would take a minute.
    const server = await startScriptedServer({
      reply: (request, index) => (index === 0 ? rejectKey(request, index) : echo(request, index)),
      latencySeconds: (_, index) => (index === 0 ? 0 : 60),
    });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "sk-bad" });
    opened.push(client, server);
    const env = makeEnv();
    const { inputs } = await env.inputs({ split: "eval", numExamples: 4 });
    const result = await generate(env, inputs, {
      clients: client,
      model: "scripted",
      maxConcurrent: 4,
      independentScoring: true,
    });
    expect(result.stoppedBy).toBeInstanceOf(ApiKeyRejectedError);
    const errors = result.records.map((r) => r.error?.error).sort();
    expect(errors).toEqual(["ApiKeyRejectedError", "RunStoppedError", "RunStoppedError", "RunStoppedError"]);
    const stopped = result.records.find((r) => r.error?.error === "RunStoppedError");
    expect(stopped?.error?.message).toContain(KEY_MESSAGE);
  });

  it("saves the run as stopped, and a resume with a working key runs the stopped rollouts again", async () => {
    dir = await mkdtemp(join(tmpdir(), "vf-stop-"));
    const env = makeEnv();
    const options = { model: "scripted", numExamples: 4, rolloutsPerExample: 2, maxConcurrent: 2 };
    const refused = await serve(rejectKey);
    const first = await evaluate(env, { ...options, clients: refused.client, save: { outputDir: dir } });
    expect(first.stoppedBy).toBeInstanceOf(ApiKeyRejectedError);
    const saved = await readRun(first.runDir!);
    expect(saved.metadata.status).toBe("stopped");
    expect(saved.records.length).toBeGreaterThan(0);
    expect(saved.records.some((record) => record.error?.message.includes(KEY_MESSAGE))).toBe(true);

    const working = await serve(echo);
    const second = await evaluate(env, {
      ...options,
      clients: working.client,
      save: { outputDir: dir, resume: true },
    });
    expect(second.runDir).toBe(first.runDir);
    expect(second.warnings.some((w) => w.startsWith(`rerunning ${saved.records.length} rollouts`))).toBe(
      true,
    );
    const final = await readRun(second.runDir!);
    expect(final.metadata.status).toBe("complete");
    expect(final.records).toHaveLength(8);
    expect(final.records.every((record) => record.error === null && record.reward === 1)).toBe(true);
  });
});

describe("a run's status when rollouts fail for other reasons", () => {
  it("is failed when every rollout failed, and complete when some did", async () => {
    const env = makeEnv();
    const garbage = await serve(() => ({ type: "garbage", body: "<html>oops</html>" }));
    const allFailed = await evaluate(env, { clients: garbage.client, model: "scripted", numExamples: 3 });
    expect(allFailed.stoppedBy).toBeNull();
    expect(allFailed.metadata.status).toBe("failed");
    // Every rollout ran: a failure the model may not repeat does not stop the run.
    expect(allFailed.records).toHaveLength(3);

    const someFailed = await serve((request, index) =>
      lastUserText(request.messages) === "echo 0" ? { type: "garbage", body: "oops" } : echo(request, index),
    );
    const partly = await evaluate(env, { clients: someFailed.client, model: "scripted", numExamples: 3 });
    expect(partly.metadata.status).toBe("complete");
    expect(partly.records.filter((record) => record.error !== null)).toHaveLength(1);
  });
});
