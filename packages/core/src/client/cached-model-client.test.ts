// The response cache on real clients of every API against a scripted server on loopback: a run is
// recorded, the server stopped, and the same calls replayed from the folder alone, token ids and
// logprobs included; identical calls replay their own answers in order; a call never recorded fails
// with one line naming it; refresh overwrites; concurrent writers leave whole files.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplyFn, startScriptedServer } from "../testing/index.ts";
import { CacheMissError } from "./cache-miss-error.ts";
import { CachedModelClient } from "./cached-model-client.ts";
import { ClientLeases } from "./client-leases.ts";
import { ApiClientType } from "./client-type.ts";
import { createModelClient } from "./create-model-client.ts";
import { STOPPED_RUN_ERROR_NAMES } from "./fatal-model-error.ts";
import type { ChatRequest } from "./model-client.ts";
import { CachedCall, type CacheMode, ResponseCache } from "./response-cache.ts";
import { messages } from "./test-support.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-cache-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Answers "answer N", counting every call, so identical requests get different answers. */
function counting(prefix = "answer"): ReplyFn {
  let calls = 0;
  return () => `${prefix} ${++calls}`;
}

const question: ChatRequest = { model: "scripted", messages, sampling: { temperature: 1, max_tokens: 20 } };
const other: ChatRequest = { ...question, sampling: { ...question.sampling, extra_body: { top_k: 5 } } };

/** Calls `requests` in order through a cache in `mode`, against a live server or none. */
async function run(
  type: ApiClientType,
  cacheDir: string,
  mode: CacheMode,
  requests: ChatRequest[],
  reply: ReplyFn | null,
) {
  const cache = new ResponseCache({ dir: cacheDir, mode });
  const server = reply ? await startScriptedServer({ reply, tokens: true }) : null;
  const inner = server ? createModelClient({ type, baseUrl: server.url, apiKey: "EMPTY" }) : null;
  const client = new CachedModelClient({ cache, type, inner });
  try {
    const answers = [];
    for (const request of requests) answers.push(await client.chat(request));
    return { answers, served: server?.requests.length ?? 0, cache };
  } finally {
    await client.close();
    await server?.close();
  }
}

describe("the response cache", () => {
  for (const type of ApiClientType.options) {
    it(`records calls over ${type} and replays them with no server`, async () => {
      const cacheDir = join(dir, type);
      const asked = [question, question, other];
      const recorded = await run(type, cacheDir, "record", asked, counting());
      expect(recorded.served).toBe(3);
      expect(recorded.cache.stats).toMatchObject({ hits: 0, stored: 3 });
      expect(recorded.answers.map((a) => a.message.content)).toEqual(["answer 1", "answer 2", "answer 3"]);

      const replayed = await run(type, cacheDir, "replay", asked, null);
      expect(replayed.answers).toEqual(recorded.answers);
      expect(replayed.cache.stats).toMatchObject({ hits: 3, stored: 0, misses: [] });
      if (type === "openai_chat_completions" || type === "openai_completions") {
        expect(replayed.answers[0]!.tokens?.completionLogprobs.length).toBeGreaterThan(0);
      }
      // Recording again calls nothing: every call is there.
      const again = await run(type, cacheDir, "record", asked, counting("new"));
      expect(again.served).toBe(0);
      expect(again.answers).toEqual(recorded.answers);
    });
  }

  it("fails a replayed call never recorded with one line naming it", async () => {
    const cacheDir = join(dir, "miss");
    await run("openai_chat_completions", cacheDir, "record", [question], counting());
    const replay = run("openai_chat_completions", cacheDir, "replay", [question, question], null);
    const error = await replay.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CacheMissError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(
      /^--cache-mode replay: no recorded answer in .+ for scripted over openai_chat_completions, request [0-9a-f]{12}, identical call #2 of the run \("What is 2\+2\?"\): record it with --cache-mode record/,
    );
    // A resumed run calls again what a replay missed (e.g. after recording it).
    expect(STOPPED_RUN_ERROR_NAMES.has(CacheMissError.name)).toBe(true);
    // Another API is another request.
    const otherApi = await run("anthropic_messages", cacheDir, "replay", [question], null).catch((e) => e);
    expect(otherApi).toBeInstanceOf(CacheMissError);
  });

  it("gives a failed call's place to the next identical call, so the recording has no gaps", async () => {
    const cacheDir = join(dir, "gaps");
    let calls = 0;
    const flaky: ReplyFn = () =>
      ++calls === 1 ? { type: "error", status: 400, message: "try again" } : `answer ${calls}`;
    const cache = new ResponseCache({ dir: cacheDir, mode: "record" });
    const server = await startScriptedServer({ reply: flaky });
    const inner = createModelClient({
      type: "openai_chat_completions",
      baseUrl: server.url,
      apiKey: "EMPTY",
    });
    const client = new CachedModelClient({ cache, type: "openai_chat_completions", inner });
    await expect(client.chat(question)).rejects.toThrow(/try again/);
    expect((await client.chat(question)).message.content).toBe("answer 2");
    await client.close();
    await server.close();
    expect(await readdir(cacheDir)).toEqual([expect.stringMatching(/^[0-9a-f]{64}-0\.json$/)]);
  });

  it("refresh calls the model and overwrites what was recorded", async () => {
    const cacheDir = join(dir, "refresh");
    await run("openai_chat_completions", cacheDir, "record", [question], counting("old"));
    const refreshed = await run("openai_chat_completions", cacheDir, "refresh", [question], counting("new"));
    expect(refreshed.served).toBe(1);
    const replayed = await run("openai_chat_completions", cacheDir, "replay", [question], null);
    expect(replayed.answers[0]!.message.content).toBe("new 1");
  });

  it("leaves whole files when runs write the same calls at once", async () => {
    const cacheDir = join(dir, "concurrent");
    const runs = Array.from({ length: 4 }, () =>
      run("openai_chat_completions", cacheDir, "refresh", [question, other], counting()),
    );
    await Promise.all(runs);
    const files = await readdir(cacheDir);
    expect(files.sort()).toHaveLength(2);
    for (const file of files) CachedCall.parse(JSON.parse(await readFile(join(cacheDir, file), "utf8")));
  });

  it("caches the clients ClientLeases lends", async () => {
    const cacheDir = join(dir, "leases");
    const server = await startScriptedServer({ reply: counting() });
    const leases = new ClientLeases({ cache: new ResponseCache({ dir: cacheDir, mode: "record" }) });
    const lease = leases.acquire({ baseUrl: server.url, apiKeyVar: null, headers: {} });
    await lease.client.chat(question);
    lease.release();
    await leases.close();
    await server.close();
    const replay = new ClientLeases({ cache: new ResponseCache({ dir: cacheDir, mode: "replay" }) });
    const replayed = replay.acquire({ baseUrl: server.url, apiKeyVar: null, headers: {} });
    expect((await replayed.client.chat(question)).message.content).toBe("answer 1");
    await replay.close();
  });
});
