/**
 * Training step time of the engine on the reference config (d_model 64, 2 layers, 4 heads,
 * sequence 48, batch 32, byte vocabulary), and of the identical model in PyTorch on CPU in the same
 * run when /usr/bin/python3 can import torch. Not a test: it prints figures.
 *
 *   npx tsx bench/engine/train-step.ts [--steps 10] [--threads 2]
 *
 * Debian's python3-torch links the reference BLAS (printed as "BLAS generic"), which is what the
 * issue's target is measured against. PyTorch on an optimised BLAS is much faster on this model: to
 * see it without changing the machine's BLAS, extract libopenblas0-pthread (apt-get download, then
 * dpkg -x) and run train_step_torch.py with LD_LIBRARY_PATH pointing at its openblas-pthread folder.
 */
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  type BatchItem,
  createLocalTrainer,
  type ModelConfigInput,
  parseModelConfig,
  Rng,
} from "@vf-rl/engine";

const { values } = parseArgs({
  options: {
    steps: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    threads: { type: "string", default: String(Math.min(2, availableParallelism())) },
  },
});
const steps = Number(values.steps);
const warmup = Number(values.warmup);
const threads = Number(values.threads);

const BATCH = 32;
const SEQ = 48;
const reference: ModelConfigInput = {
  vocabSize: 263,
  dModel: 64,
  nLayers: 2,
  nHeads: 4,
  dFF: 256,
  maxSeqLen: SEQ,
};
const config = parseModelConfig(reference);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** "median X ms/step (best Y)": the best is the figure least disturbed by other processes. */
function summary(times: number[]): string {
  return `${median(times).toFixed(1)} ms/step median, ${Math.min(...times).toFixed(1)} best of ${times.length}`;
}

async function ours(): Promise<number[]> {
  const trainer = await createLocalTrainer({ config, seed: 0, threads });
  const rng = new Rng(0);
  // SEQ positions per item: SEQ + 1 tokens, every one but the first trained
  const batch: BatchItem[] = Array.from({ length: BATCH }, () => ({
    tokens: Array.from({ length: SEQ + 1 }, () => rng.nextU32() % 256),
    mask: Array.from({ length: SEQ + 1 }, (_, t) => (t === 0 ? 0 : 1)),
  }));
  const times: number[] = [];
  for (let i = 0; i < warmup + steps; i++) {
    const t0 = performance.now();
    await trainer.forwardBackward(batch, { type: "cross_entropy" });
    await trainer.optimStep({ learningRate: 1e-3, weightDecay: 0.1, gradClipNorm: 1 });
    if (i >= warmup) times.push(performance.now() - t0);
  }
  await trainer.close();
  return times;
}

function pytorch(): { times: number[]; threads: number; torch: string; blas: string } | string {
  const script = fileURLToPath(new URL("train_step_torch.py", import.meta.url));
  const args = JSON.stringify({ config, batch: BATCH, seq: SEQ, steps, warmup, threads });
  try {
    return JSON.parse(
      execFileSync("/usr/bin/python3", [script, args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
  } catch (error) {
    return `PyTorch not run (${(error as Error).message.split("\n")[0]}): install it with apt-get install python3-torch`;
  }
}

console.log(
  `reference config ${JSON.stringify(reference)}, batch ${BATCH} × ${SEQ} positions, ${threads} thread(s)`,
);
const ourTimes = await ours();
console.log(
  `engine   ${summary(ourTimes)}, ${((BATCH * SEQ * 1000) / median(ourTimes)).toFixed(0)} tokens/s`,
);
const torch = pytorch();
if (typeof torch === "string") {
  console.log(torch);
} else {
  console.log(
    `pytorch  ${summary(torch.times)}, torch ${torch.torch}, BLAS ${torch.blas}, ${torch.threads} thread(s)`,
  );
  const byMedian = median(ourTimes) / median(torch.times);
  const byBest = Math.min(...ourTimes) / Math.min(...torch.times);
  console.log(
    `ratio    engine / pytorch = ${byMedian.toFixed(2)} by medians, ${byBest.toFixed(2)} by bests (target ≤ 1)`,
  );
}
