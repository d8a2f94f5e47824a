import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { GroupScoringRequiredError } from "../errors.ts";
import { readRun } from "../results/read-run.ts";
import { Rubric } from "../rubrics/rubric.ts";
import type { ConcurrencyProbe } from "../testing/concurrency-probe.ts";
import {
  concurrencyProbe,
  lastUserText,
  type ReplyFn,
  type ScriptedServer,
  startScriptedServer,
} from "../testing/index.ts";
import { evaluate } from "./evaluate.ts";
import { generate } from "./generate.ts";
import { Slots } from "./slots.ts";
import { echoEnv, echoRows } from "./test-support.ts";

const rows = echoRows(6);
const makeEnv = () => echoEnv(rows.length);

let server: ScriptedServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function clientFor(reply: ReplyFn, latencySeconds = 0) {
  server = await startScriptedServer({ reply, latencySeconds });
  return new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
}

describe("generate", () => {
  it("keeps at most maxConcurrent rollouts in flight and scores each group together", async () => {
    const requests = concurrencyProbe();
    const client = await clientFor(async (request) => {
      await requests.pass();
      return lastUserText(request.messages);
    });
    const env = makeEnv();
    const { inputs } = await env.inputs({ split: "eval", rolloutsPerExample: 3 });
    const groups: number[][] = [];
    const { records, cancelled } = await generate(env, inputs, {
      clients: client,
      model: "scripted",
      maxConcurrent: 4,
      onGroup: (done) => {
        groups.push(done.map((r) => r.example_id));
      },
    });
    expect(cancelled).toBe(false);
    expect(requests.peak).toBeLessThanOrEqual(4);
    expect(records).toHaveLength(18);
    expect(groups.every((g) => g.length === 3 && new Set(g).size === 1)).toBe(true);
    expect(records.every((r) => r.reward === 1 && r.metrics.exact === 1)).toBe(true);
  });

  it("runs rollouts with infrastructure errors again, up to maxRetries", async () => {
    let calls = 0;
    const client = await clientFor((request) =>
      calls++ < 4 ? { type: "error", status: 503, message: "overloaded" } : lastUserText(request.messages),
    );
    const env = makeEnv();
    const { inputs } = await env.inputs({ split: "eval", numExamples: 2, rolloutsPerExample: 2 });
    const { records } = await generate(env, inputs, {
      clients: client,
      model: "scripted",
      maxRetries: 2,
      retryDelaySeconds: () => 0.005,
    });
    expect(records.map((r) => r.error)).toEqual([null, null, null, null]);
    expect(records.every((r) => r.reward === 1)).toBe(true);
  });

  it("keeps the error on the record once retries are used up, and goes on", async () => {
    const client = await clientFor((request) =>
      lastUserText(request.messages) === "echo 0"
        ? { type: "error", status: 500, message: "always down" }
        : lastUserText(request.messages),
    );
    const env = makeEnv();
    const { inputs } = await env.inputs({ split: "eval", numExamples: 2 });
    const { records } = await generate(env, inputs, {
      clients: client,
      model: "scripted",
      maxRetries: 1,
      retryDelaySeconds: () => 0.001,
    });
    expect(records[0]!.error?.error).toBe("ModelHttpError");
    expect(records[0]!.reward).toBe(0);
    expect(records[1]!.error).toBeNull();
  });

  it("keeps finished groups and drops unfinished ones when cancelled", async () => {
    const abort = new AbortController();
    const client = await clientFor((request) => {
      const text = lastUserText(request.messages);
      if (text === "echo 0") return text;
      setTimeout(() => abort.abort(), 10);
      return new Promise((r) => setTimeout(() => r(text), 5_000));
    });
    const env = makeEnv();
    const { inputs } = await env.inputs({ split: "eval", rolloutsPerExample: 2 });
    const { records, cancelled } = await generate(env, inputs, {
      clients: client,
      model: "scripted",
      maxConcurrent: 2,
      signal: abort.signal,
    });
    expect(cancelled).toBe(true);
    expect(records.map((r) => r.example_id)).toEqual([0, 0]);
  });

  it("uses replicas in turn, one per group", async () => {
    const first = await startScriptedServer({ reply: (req) => lastUserText(req.messages) });
    const second = await startScriptedServer({ reply: (req) => lastUserText(req.messages) });
    try {
      const clients = [first, second].map((s) => new OpenAIModelClient({ baseUrl: s.url, apiKey: "EMPTY" }));
      const env = makeEnv();
      const { inputs } = await env.inputs({ split: "eval", numExamples: 4, rolloutsPerExample: 2 });
      await generate(env, inputs, { clients, model: "scripted" });
      expect(first.requests).toHaveLength(4);
      expect(second.requests).toHaveLength(4);
      expect(new Set(first.requests.map((r) => lastUserText(r.messages))).size).toBe(2);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("refuses independent scoring when the rubric scores groups", async () => {
    const client = await clientFor((req) => lastUserText(req.messages));
    const env = new SingleTurnEnv({
      dataset: Dataset.fromRows(rows),
      rubric: new Rubric().addGroupReward((g) => g.map(() => 1), { name: "g" }),
    });
    const { inputs } = await env.inputs({ split: "eval" });
    await expect(
      generate(env, inputs, { clients: client, model: "scripted", independentScoring: true }),
    ).rejects.toThrow(GroupScoringRequiredError);
  });

  it("keeps several runs at once within their shared slots", async () => {
    const requests = concurrencyProbe();
    const client = await clientFor(async (request) => {
      await requests.pass();
      return lastUserText(request.messages);
    });
    const sharedSlots = new Slots(3);
    const runs = [makeEnv(), makeEnv()].map(async (env) => {
      const { inputs } = await env.inputs({ split: "eval", rolloutsPerExample: 2 });
      return generate(env, inputs, { clients: client, model: "scripted", maxConcurrent: 8, sharedSlots });
    });
    const results = await Promise.all(runs);
    expect(results.map((r) => r.records.length)).toEqual([12, 12]);
    expect(requests.peak).toBe(3);
  });

  it("bounds generation and scoring apart with maxConcurrentGeneration and maxConcurrentScoring", async () => {
    let generation = concurrencyProbe();
    const client = await clientFor(async (request) => {
      await generation.pass();
      return lastUserText(request.messages);
    });
    const scoredEnv = (scoring: ConcurrencyProbe) =>
      new SingleTurnEnv({
        dataset: Dataset.fromRows(rows),
        rubric: new Rubric().addReward(
          async () => {
            await scoring.pass();
            return 1;
          },
          { name: "slow" },
        ),
      });
    const options = { clients: client, model: "scripted", maxConcurrent: 6 };

    let scoring = concurrencyProbe();
    const { inputs } = await scoredEnv(scoring).inputs({ split: "eval", rolloutsPerExample: 1 });
    const bounded = await generate(scoredEnv(scoring), inputs, {
      ...options,
      maxConcurrentGeneration: 2,
      maxConcurrentScoring: 1,
    });
    expect(bounded.records.map((r) => r.reward)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(generation.peak).toBe(2);
    expect(scoring.peak).toBe(1);

    // Without them, both phases take up to maxConcurrent.
    generation = concurrencyProbe(3);
    scoring = concurrencyProbe(2);
    const open = await generate(scoredEnv(scoring), inputs, options);
    expect(open.records).toHaveLength(6);
    expect(generation.peak).toBeGreaterThanOrEqual(3);
    expect(scoring.peak).toBeGreaterThanOrEqual(2);
  });

  it("scores each group as soon as it is done, or after every rollout with interleaveScoring: false", async () => {
    const client = await clientFor((request) => lastUserText(request.messages), 0.005);
    // A metric that notes how many model requests the server had received when it was scored.
    const requestsSeen = (interleaveScoring: boolean) => {
      const seen: number[] = [];
      const env = new SingleTurnEnv({
        dataset: Dataset.fromRows(rows),
        rubric: new Rubric().addMetric(
          () => {
            seen.push(server!.requests.length);
            return 0;
          },
          { name: "requests_seen" },
        ),
      });
      return { env, seen, interleaveScoring };
    };
    for (const { env, seen, interleaveScoring } of [requestsSeen(true), requestsSeen(false)]) {
      const start = server!.requests.length;
      const { inputs } = await env.inputs({ split: "eval", numExamples: 4, rolloutsPerExample: 2 });
      const groups: number[] = [];
      const { records } = await generate(env, inputs, {
        clients: client,
        model: "scripted",
        maxConcurrent: 1,
        interleaveScoring,
        onGroup: (done) => {
          groups.push(done[0]!.example_id);
        },
      });
      expect(records).toHaveLength(8);
      expect(groups.sort()).toEqual([0, 1, 2, 3]);
      const firstScored = seen[0]! - start;
      // One rollout at a time: interleaved, the first group is scored while later ones still wait.
      if (interleaveScoring) expect(firstScored).toBeLessThan(8);
      else expect(seen.every((n) => n - start === 8)).toBe(true);
    }
  });
});

describe("evaluate", () => {
  it("saves as it goes, and resumes an interrupted run to the full count without duplicates", async () => {
    dir = await mkdtemp(join(tmpdir(), "vf-eval-"));
    const abort = new AbortController();
    let calls = 0;
    const client = await clientFor((request) => {
      calls++;
      if (calls === 5) abort.abort();
      return lastUserText(request.messages);
    });
    const env = makeEnv();
    const options = {
      envId: "echo",
      clients: client,
      model: "org/scripted",
      numExamples: 5,
      rolloutsPerExample: 2,
      maxConcurrent: 2,
      save: { outputDir: dir },
    };
    const first = await evaluate(env, { ...options, signal: abort.signal });
    expect(first.cancelled).toBe(true);
    expect(first.runDir).toContain(join("evals", "echo--org--scripted"));
    const saved = await readRun(first.runDir!);
    expect(saved.metadata.status).toBe("interrupted");
    expect(saved.records.length).toBe(first.records.length);
    expect(saved.records.length).toBeLessThan(10);

    const second = await evaluate(env, { ...options, save: { outputDir: dir, resume: true } });
    expect(second.runDir).toBe(first.runDir);
    expect(second.cancelled).toBe(false);
    const final = await readRun(second.runDir!);
    expect(final.metadata.status).toBe("complete");
    const keys = final.records.map((r) => `${r.example_id}/${r.rollout_index}`);
    expect(keys).toHaveLength(10);
    expect(new Set(keys).size).toBe(10);
    expect(final.metadata.avg_reward).toBe(1);
    expect(final.metadata.pass_at_k).toEqual({ "1": 1, "2": 1 });
    const lines = (await readFile(join(second.runDir!, "results.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(10);
  });

  it("saves a named run under its name, with the name in metadata.json, and resumes it there", async () => {
    dir = await mkdtemp(join(tmpdir(), "vf-eval-"));
    const abort = new AbortController();
    let calls = 0;
    const client = await clientFor((request) => {
      if (++calls === 3) abort.abort();
      return lastUserText(request.messages);
    });
    const options = {
      envId: "echo",
      clients: client,
      model: "scripted",
      name: "baseline",
      numExamples: 4,
      rolloutsPerExample: 1,
      maxConcurrent: 1,
    };
    const first = await evaluate(makeEnv(), { ...options, save: { outputDir: dir }, signal: abort.signal });
    expect(first.cancelled).toBe(true);
    expect(first.runDir).toContain(join("evals", "baseline--scripted"));
    expect((await readRun(first.runDir!)).metadata).toMatchObject({ env_id: "echo", name: "baseline" });

    const second = await evaluate(makeEnv(), { ...options, save: { outputDir: dir, resume: true } });
    expect(second.runDir).toBe(first.runDir);
    expect(second.warnings).not.toContain(
      "no incomplete run with these settings to resume: starting a new run",
    );
    expect((await readRun(second.runDir!)).records).toHaveLength(4);
  });

  it("says when it is asked for more examples than the dataset has, and evaluates them all", async () => {
    const client = await clientFor((request) => lastUserText(request.messages));
    const result = await evaluate(makeEnv(), { clients: client, model: "scripted", numExamples: 10 });
    expect(result.records).toHaveLength(6);
    expect(result.warnings).toEqual([
      "this environment has no eval split: evaluating on its training rows",
      "asked for 10 examples but the dataset has 6: evaluating all 6 (raise the rollouts per example for more rollouts)",
    ]);
  });
});
