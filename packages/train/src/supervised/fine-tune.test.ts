import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import { loadCheckpoint } from "@vf-rl/engine";
import { beforeAll, describe, expect, it } from "vitest";
import { fineTune } from "./fine-tune.ts";

const TINY = { dModel: 32, nLayers: 1, nHeads: 2, dFF: 64, maxSeqLen: 64 };
let dir: string;
let data: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-fine-tune-"));
  data = join(dir, "chats.jsonl");
  const chat = (question: string, answer: string) =>
    JSON.stringify({
      messages: [
        { role: "user", content: question },
        { role: "assistant", content: answer },
      ],
    });
  const lines = Array.from({ length: 20 }, (_, i) => chat(`Say ${i}.`, String(i)));
  lines.push(chat("Repeat this.", "x".repeat(200))); // longer than the model's context of 64
  await writeFile(data, `${lines.join("\n")}\n`);
});

describe("fineTune", () => {
  it("leaves out what the context cannot hold, holds out a tenth for the eval loss, and trains", async () => {
    const lines: string[] = [];
    const result = await fineTune({
      data: { dataFiles: [data], evalFiles: [], envIds: [], envArgs: {} },
      model: { type: "fresh", config: TINY, seed: 0 },
      threads: 1,
      evalSize: 5,
      settings: { steps: 2, batchSize: 4, outputDir: join(dir, "out") },
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual([
      `${data}: 21 conversations`,
      "left out 1 of 21 training conversations longer than the model's context of 64 tokens",
      "training a model of dModel 32, 1 layers, 2 heads, context 64 on 18 conversations (2 held out), 2 steps of 4",
    ]);
    expect(result.steps).toBe(2);
    expect(result.evalLoss.map((p) => p.step)).toEqual([0, 1, 2]); // every step: a tenth of 2 steps, at least 1
    expect((await loadCheckpoint(result.finalDir)).config.dModel).toBe(32);
  });

  it("tells a bad model config as vf's error, naming the keys", async () => {
    const failure = fineTune({
      data: { dataFiles: [data], evalFiles: [], envIds: [], envArgs: {} },
      model: { type: "fresh", config: { dModel: 30, nHeads: 4 }, seed: 0 },
      settings: { steps: 1, outputDir: join(dir, "bad") },
    });
    await expect(failure).rejects.toBeInstanceOf(UserError);
    await expect(failure).rejects.toThrow(/invalid model config: nLayers: .*dFF: /);
  });
});
