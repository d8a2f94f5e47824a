/**
 * Makes the warm start `configs/train/bash-arithmetic.toml` trains from: the built-in base model
 * fine-tuned (vf sft's loop, @vf-rl/train/supervised) on `warmStartConversations`, scripted traces
 * of the bash harness on training problems, in three phases of 16 conversations a step:
 *
 *   1. habit  100 steps, a quarter running the expression in bash: the format of the calls
 *   2. tools   60 steps, every one running it: copying the tool's output into the box
 *   3. habit   30 steps, a quarter again: the model knows how but mostly does not
 *
 * (Phase 1 alone gave calls that copy the expression but a box that does not copy bash's output:
 * 0 of 48 sampled rollouts right.) Writes `warm-start/` (config.json, model.safetensors) beside this
 * folder; each phase's work files (conversations, metrics.jsonl, loss-curve.svg) go to
 * outputs/bash-arithmetic-warm-start/phase-N/.
 *
 *   npx tsx --conditions=vf-source environments/bash-arithmetic/scripts/warm-start.ts [--start-at 2 --from DIR]
 *
 * Deterministic for a thread count (--threads, default 2).
 */
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BASE_MODEL_DIR } from "@vf-rl/engine";
import { fineTune } from "@vf-rl/train/supervised";
import { warmStartConversations } from "../src/index.ts";

const PHASES = [
  { steps: 100, callShare: 0.25 },
  { steps: 60, callShare: 1 },
  { steps: 30, callShare: 0.25 },
];
const BATCH = 16;

const { values } = parseArgs({
  options: {
    threads: { type: "string", default: "2" },
    out: { type: "string", default: "outputs/bash-arithmetic-warm-start" },
    "start-at": { type: "string", default: "1" },
    from: { type: "string" },
  },
});
const target = resolve(import.meta.dirname, "..", "warm-start");
let model = values.from ?? BASE_MODEL_DIR;
for (const [index, phase] of PHASES.entries()) {
  if (index + 1 < Number(values["start-at"])) continue;
  const work = resolve(values.out!, `phase-${index + 1}`);
  // One conversation per trained slot; each phase draws from the first training problems.
  const conversations = warmStartConversations({ count: phase.steps * BATCH, callShare: phase.callShare });
  await mkdir(work, { recursive: true });
  const data = join(work, "conversations.jsonl");
  await writeFile(data, `${conversations.map((c) => JSON.stringify(c)).join("\n")}\n`);
  const result = await fineTune({
    data: { dataFiles: [data], evalFiles: [], envIds: [], envArgs: {} },
    model: { type: "checkpoint", dir: model },
    threads: Number(values.threads),
    settings: {
      steps: phase.steps,
      batchSize: BATCH,
      learningRate: 2e-3,
      warmupSteps: 10,
      schedule: "constant",
      saveEvery: 25,
      outputDir: work,
    },
    log: (line) => console.log(`phase ${index + 1}: ${line}`),
    onStep: ({ step, loss }) => {
      if (step % 10 === 0)
        console.log(`phase ${index + 1}: step ${step}/${phase.steps}, loss ${loss.toFixed(4)}`);
    },
  });
  model = result.finalDir;
}
await mkdir(target, { recursive: true });
for (const file of ["config.json", "model.safetensors"])
  await copyFile(join(model, file), join(target, file));
console.log(`wrote ${target} from ${model}`);
