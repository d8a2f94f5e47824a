import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalTrainer, loadCheckpoint, tokenizer } from "@vf-rl/engine";
import { describe, expect, it } from "vitest";
import { conversationItem } from "./sft-example.ts";
import { runSft } from "./sft-loop.ts";

const config = { vocabSize: tokenizer.vocabSize, dModel: 32, nLayers: 1, nHeads: 2, dFF: 64, maxSeqLen: 64 };
const words = ["cat", "dog", "sun", "map", "pen", "cup", "box", "hat", "key", "bus"];
const examples = words.map((w) =>
  conversationItem([
    { role: "user", content: `Take the ${w}.` },
    { role: "assistant", content: "Done." }, // the same answer to every request: held-out rows can be learned
  ]),
);

async function run(outputDir: string) {
  const trainer = await createLocalTrainer({ config, seed: 1 });
  const steps: number[] = [];
  const result = await runSft({
    trainer,
    train: examples.slice(0, 8),
    eval: examples.slice(8),
    settings: { steps: 30, batchSize: 4, learningRate: 1e-2, saveEvery: 10, evalEvery: 10, outputDir },
    onStep: (p) => {
      steps.push(p.step);
    },
  });
  await trainer.close();
  return { result, steps };
}

describe("supervised fine-tuning", () => {
  it("lowers the loss, saves checkpoints, metrics and a loss curve", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-sft-"));
    const { result, steps } = await run(dir);
    expect(steps).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(result.trainLoss.at(-1)!.loss).toBeLessThan(result.trainLoss[0]!.loss * 0.7);
    expect(result.evalLoss.map((p) => p.step)).toEqual([0, 10, 20, 30]);
    expect(result.evalLoss.at(-1)!.loss).toBeLessThan(result.evalLoss[0]!.loss);
    expect(result.checkpoints).toEqual([join(dir, "step-10"), join(dir, "step-20"), join(dir, "final")]);
    expect((await loadCheckpoint(result.finalDir)).config.dModel).toBe(32);
    const metrics = (await readFile(join(dir, "metrics.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(metrics).toHaveLength(30);
    expect(metrics[9]).toMatchObject({ step: 10, eval_loss: result.evalLoss[1]!.loss });
    const svg = await readFile(result.curvePath, "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("<path");
    expect((await readdir(dir)).sort()).toEqual([
      "final",
      "loss-curve.svg",
      "metrics.jsonl",
      "step-10",
      "step-20",
    ]);
  });

  it("repeats a run bit for bit from the same seed", async () => {
    const a = await run(await mkdtemp(join(tmpdir(), "vf-sft-a-")));
    const b = await run(await mkdtemp(join(tmpdir(), "vf-sft-b-")));
    expect(b.result.trainLoss).toEqual(a.result.trainLoss);
    expect((await loadCheckpoint(b.result.finalDir)).params).toEqual(
      (await loadCheckpoint(a.result.finalDir)).params,
    );
  });
});
