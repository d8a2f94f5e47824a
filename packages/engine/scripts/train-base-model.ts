/**
 * Trains the shipped base model (packages/engine/models/base) from scratch, deterministically:
 * supervised fine-tuning of a fresh small transformer on the bundled environments' own prompts and
 * reference completions (reverse-text, alphabet-sort when present) plus synthetic short arithmetic
 * in gsm8k's format. Training stops early on purpose: the model must be weak enough for RL to
 * matter (see packages/engine/models/README.md for the measured rewards).
 *
 *   npx tsx packages/engine/scripts/train-base-model.ts [--steps N] [--out DIR] [--threads N]
 *
 * It writes checkpoints, metrics.jsonl and loss-curve.svg under outputs/base-model/ and copies the
 * final checkpoint to packages/engine/models/base (or --out).
 */
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Environment, findEnvironment, loadEnvironmentById } from "@vf/core";
import {
  BASE_MODEL_DIR,
  type BatchItem,
  type ChatMessageInput,
  conversationItem,
  createLocalTrainer,
  Rng,
  runSft,
  tokenizer,
} from "@vf/engine";

/** The architecture of the base model: small, so it samples fast on two cores. */
export const BASE_CONFIG = {
  vocabSize: tokenizer.vocabSize,
  dModel: 64,
  nLayers: 2,
  nHeads: 4,
  dFF: 256,
  maxSeqLen: 1024,
};

/** Every choice that shapes the model; change one and the model changes. */
const RECIPE = {
  initSeed: 0,
  dataSeed: 0,
  steps: 1400,
  batchSize: 32,
  learningRate: 3e-3,
  warmupSteps: 50,
  /** Constant after warmup: the model after N steps is the same whatever the run's length. */
  schedule: "constant" as const,
  weightDecay: 0.01,
  gradClipNorm: 1,
  /** Rows of each source: environments' training rows, and synthetic arithmetic problems. */
  rows: { "reverse-text": 7000, "alphabet-sort": 1500, arithmetic: 1500 },
};

const { values } = parseArgs({
  options: {
    steps: { type: "string" },
    out: { type: "string", default: BASE_MODEL_DIR },
    work: { type: "string", default: "outputs/base-model" },
    threads: { type: "string", default: "2" },
    "save-every": { type: "string", default: "100" },
  },
});
const steps = values.steps ? Number(values.steps) : RECIPE.steps;

/** gsm8k's system prompt, so the arithmetic looks like its rows. */
const GSM8K_SYSTEM =
  "Solve the math problem. Think step by step, then give the final answer as a number inside \\boxed{}.";

/** Short arithmetic in gsm8k's format: a question, one line of working, then the boxed answer. */
function arithmetic(count: number, seed: number): ChatMessageInput[][] {
  const rng = new Rng(seed, 1);
  const int = (lo: number, hi: number): number => lo + (rng.nextU32() % (hi - lo + 1));
  const names = ["Tom", "Ana", "Lee", "Mia", "Sam", "Ivy", "Max", "Zoe"];
  const things = ["apples", "books", "coins", "pens", "cards", "stamps"];
  const rows: ChatMessageInput[][] = [];
  for (let i = 0; i < count; i++) {
    const kind = int(0, 3);
    const a = int(2, 60);
    const b = int(2, kind === 2 ? 9 : 40);
    const name = names[int(0, names.length - 1)]!;
    const thing = things[int(0, things.length - 1)]!;
    let question: string;
    let working: string;
    let answer: number;
    if (kind === 0) {
      question =
        int(0, 1) === 0
          ? `What is ${a} + ${b}?`
          : `${name} has ${a} ${thing} and gets ${b} more. How many ${thing} does ${name} have?`;
      answer = a + b;
      working = `${a}+${b}=${answer}`;
    } else if (kind === 1) {
      const big = Math.max(a, b);
      const small = Math.min(a, b);
      question =
        int(0, 1) === 0
          ? `What is ${big} - ${small}?`
          : `${name} has ${big} ${thing} and gives away ${small}. How many ${thing} are left?`;
      answer = big - small;
      working = `${big}-${small}=${answer}`;
    } else if (kind === 2) {
      question =
        int(0, 1) === 0
          ? `What is ${a} * ${b}?`
          : `${name} buys ${b} boxes of ${a} ${thing}. How many ${thing} is that?`;
      answer = a * b;
      working = `${a}*${b}=${answer}`;
    } else {
      const c = int(2, 20);
      question = `What is ${a} + ${b} - ${c}?`;
      answer = a + b - c;
      working = `${a}+${b}=${a + b}\n${a + b}-${c}=${answer}`;
    }
    rows.push([
      { role: "system", content: GSM8K_SYSTEM },
      { role: "user", content: question },
      { role: "assistant", content: `${working}\nThe answer is \\boxed{${answer}}` },
    ]);
  }
  return rows;
}

/** An environment's training rows (at most `count`), each its prompt then its reference completion. */
async function environmentRows(id: string, count: number): Promise<ChatMessageInput[][]> {
  try {
    findEnvironment(id);
  } catch {
    console.log(`${id}: not installed, skipped`);
    return [];
  }
  const args = { numTrain: count }; // both environments take numTrain; the rest stays at their defaults
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  const { env } = (await loadEnvironmentById(id, { args })) as { env: Environment<any> };
  const { inputs } = await env.inputs({ split: "train", numExamples: count });
  await env.teardown();
  return inputs.map((input) => [...input.prompt, ...env.referenceCompletion(input)] as ChatMessageInput[]);
}

const sources: Record<string, ChatMessageInput[][]> = {
  "reverse-text": await environmentRows("reverse-text", RECIPE.rows["reverse-text"]),
  "alphabet-sort": await environmentRows("alphabet-sort", RECIPE.rows["alphabet-sort"]),
  arithmetic: arithmetic(RECIPE.rows.arithmetic, RECIPE.dataSeed),
};
const items: BatchItem[] = [];
for (const [name, rows] of Object.entries(sources)) {
  const fitting = rows
    .map((r) => conversationItem(r))
    .filter((it) => it.tokens.length - 1 <= BASE_CONFIG.maxSeqLen);
  console.log(
    `${name}: ${fitting.length} conversations${fitting.length < rows.length ? ` (${rows.length - fitting.length} too long, left out)` : ""}`,
  );
  items.push(...fitting);
}
// every 50th conversation is held out for the eval loss
const train = items.filter((_, i) => i % 50 !== 0);
const held = items.filter((_, i) => i % 50 === 0);

const started = performance.now();
const trainer = await createLocalTrainer({
  config: BASE_CONFIG,
  seed: RECIPE.initSeed,
  threads: Number(values.threads),
});
await rm(values.work, { recursive: true, force: true });
const result = await runSft({
  trainer,
  train,
  eval: held,
  settings: {
    steps,
    batchSize: RECIPE.batchSize,
    learningRate: RECIPE.learningRate,
    warmupSteps: RECIPE.warmupSteps,
    schedule: RECIPE.schedule,
    weightDecay: RECIPE.weightDecay,
    gradClipNorm: RECIPE.gradClipNorm,
    seed: RECIPE.dataSeed,
    saveEvery: Number(values["save-every"]),
    outputDir: values.work,
  },
  onStep: (p) => {
    if (p.evalLoss !== null) {
      console.log(
        `step ${p.step}/${p.totalSteps}  loss ${p.loss.toFixed(4)}  eval ${p.evalLoss.toFixed(4)}  ${Math.round(p.tokensPerSecond)} tok/s  ${(p.elapsedMs / 1000).toFixed(0)} s`,
      );
    }
  },
});
await trainer.close();
await mkdir(values.out, { recursive: true });
await cp(join(result.finalDir, "config.json"), join(values.out, "config.json"));
await cp(join(result.finalDir, "model.safetensors"), join(values.out, "model.safetensors"));
await writeFile(
  join(values.work, "recipe.json"),
  `${JSON.stringify({ config: BASE_CONFIG, ...RECIPE, steps }, null, 2)}\n`,
);
console.log(
  `trained in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote ${values.out} (loss curve: ${result.curvePath})`,
);
