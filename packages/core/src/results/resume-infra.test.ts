// Resuming a run whose model server failed for a while (an HTTP 503, a timeout, a dropped connection):
// rollouts that hit infrastructure errors are run again, those that failed for the model's own reasons
// are kept as they are.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { evaluate } from "../generate/evaluate.ts";
import { echoEnv } from "../generate/test-support.ts";
import { lastUserText, type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { readRun } from "./read-run.ts";

const makeEnv = () => echoEnv(4);

let server: ScriptedServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** How the model server fails for "echo 1" while the outage lasts, and what the rollout records. */
const outages = [
  {
    kind: "an HTTP 503",
    error: "ModelHttpError",
    reply: { type: "error", status: 503, message: "overloaded" },
  },
  // The client gives up after 2 s; the server would answer after 60.
  { kind: "a timeout", error: "InfraError", reply: "echo 1", latencySeconds: 60 },
  // The server closes the connection without a byte of answer.
  { kind: "a dropped connection", error: "EndpointUnreachableError", reply: { type: "drop" } },
] as const;

describe("resuming after infrastructure errors", () => {
  it.each(outages)(
    "reruns rollouts that failed with $kind, replacing their rows, and keeps the model's own failures",
    async (outageCase) => {
      let outage = true;
      const asked: string[] = [];
      const failing = (text: string) => outage && text === "echo 1";
      server = await startScriptedServer({
        reply: (request) => {
          const text = lastUserText(request.messages);
          asked.push(text);
          if (failing(text)) return outageCase.reply;
          if (text === "echo 3") return { type: "empty" }; // the model's own failure, every time
          return text;
        },
        latencySeconds: (request) =>
          failing(lastUserText(request.messages)) && "latencySeconds" in outageCase
            ? outageCase.latencySeconds
            : 0,
      });
      dir = await mkdtemp(join(tmpdir(), "vf-infra-"));
      const options = {
        clients: new OpenAIModelClient({
          baseUrl: server.url,
          apiKey: "EMPTY",
          maxRetries: 0,
          timeoutSeconds: 2,
        }),
        model: "scripted",
        numExamples: 4,
        rolloutsPerExample: 2,
        maxRetries: 0,
      };

      const first = await evaluate(makeEnv(), { ...options, save: { outputDir: dir } });
      const errors = (records: typeof first.records) =>
        records.map((r) => `${r.example_id}/${r.rollout_index}:${r.error?.error ?? "ok"}`).sort();
      expect(errors(first.records)).toEqual([
        "0/0:ok",
        "0/1:ok",
        `1/0:${outageCase.error}`,
        `1/1:${outageCase.error}`,
        "2/0:ok",
        "2/1:ok",
        "3/0:EmptyModelResponseError",
        "3/1:EmptyModelResponseError",
      ]);

      outage = false;
      asked.length = 0;
      const resumed = await evaluate(makeEnv(), { ...options, save: { outputDir: dir, resume: true } });
      expect(resumed.runDir).toBe(first.runDir);
      expect(resumed.warnings).toContain(
        "rerunning 2 rollouts that failed with infrastructure errors or were cut off by a stopped run",
      );
      expect(asked).toEqual(["echo 1", "echo 1"]);

      const saved = await readRun(resumed.runDir!);
      expect(saved.warnings).toEqual([]);
      expect(errors(saved.records)).toEqual([
        "0/0:ok",
        "0/1:ok",
        "1/0:ok",
        "1/1:ok",
        "2/0:ok",
        "2/1:ok",
        "3/0:EmptyModelResponseError",
        "3/1:EmptyModelResponseError",
      ]);
      const lines = (await readFile(join(resumed.runDir!, "results.jsonl"), "utf8")).trim().split("\n");
      expect(lines).toHaveLength(8);
      expect(saved.metadata).toMatchObject({ status: "complete", avg_reward: 0.75 });
    },
  );
});
