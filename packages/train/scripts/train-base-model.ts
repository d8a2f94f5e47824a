/**
 * Trains the shipped base model (packages/engine/models/base) from scratch, deterministically, by
 * supervised fine-tuning of a fresh small transformer on the bundled environments' own prompts and
 * reference completions (reverse-text, alphabet-sort when present) plus synthetic short arithmetic
 * in gsm8k's format, in two phases:
 *
 *   clean  1,600 steps on the references as they are: the model learns the formats and most of
 *          the copying;
 *   noisy  200 more steps (fresh optimizer) where a tenth of the reversed characters are swapped
 *          for other characters of the passage: the model keeps its right answer as the most
 *          likely one but samples mistakes, like a pretrained model that has seen imperfect text.
 *
 * The model must be weak enough for RL to matter; packages/engine/models/README.md has the
 * measured rewards and why the recipe is what it is.
 *
 *   npx tsx --conditions=vf-source packages/train/scripts/train-base-model.ts [--steps N] [--noisy-steps N]
 *       [--from PHASE1_DIR] [--out DIR] [--work DIR] [--threads N] [--save-every N]
 *
 * --from skips the clean phase and starts the noisy one from that checkpoint. Checkpoints,
 * metrics.jsonl and loss-curve.svg of each phase land under outputs/base-model/phase-{1,2}/, and
 * the final checkpoint is copied to packages/engine/models/base (or --out).
 */
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Environment } from "@vf-rl/core";
import { findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import {
  BASE_MODEL_DIR,
  type BatchItem,
  type ChatMessageInput,
  createLocalTrainer,
  Rng,
  tokenizer,
} from "@vf-rl/engine";
import { conversationItem, runSft } from "@vf-rl/train/supervised";

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
  batchSize: 32,
  learningRate: 3e-3,
  /** Constant after warmup: the model after N steps is the same whatever the run's length. */
  schedule: "constant" as const,
  weightDecay: 0.01,
  gradClipNorm: 1,
  /** Rows of each source: environments' training rows, and synthetic arithmetic problems. */
  rows: { "reverse-text": 7000, "alphabet-sort": 1500, arithmetic: 1500 },
  arithmeticSeed: 0,
  noiseSeed: 0,
};

/** One supervised run; the second starts from the first's weights with a fresh optimizer. */
interface Phase {
  name: string;
  steps: number;
  warmupSteps: number;
  dataSeed: number;
  /**
   * The share of reversed characters replaced by another character of the same passage. Like the
   * imperfect text a pretrained model has seen, it leaves the model sampling mistakes at about this
   * rate while its most likely answer stays the right one: the gap RL for a verifiable reward
   * closes first.
   */
  reverseTextNoise: number;
}

const { values } = parseArgs({
  options: {
    steps: { type: "string" },
    out: { type: "string", default: BASE_MODEL_DIR },
    work: { type: "string", default: "outputs/base-model" },
    threads: { type: "string", default: "2" },
    "save-every": { type: "string", default: "100" },
    "noisy-steps": { type: "string", default: "200" },
    from: { type: "string" },
  },
});
const phases: [Phase, Phase] = [
  {
    name: "clean",
    steps: values.steps ? Number(values.steps) : 1600,
    warmupSteps: 50,
    dataSeed: 0,
    reverseTextNoise: 0,
  },
  {
    name: "noisy",
    steps: Number(values["noisy-steps"]),
    warmupSteps: 20,
    dataSeed: 1,
    reverseTextNoise: 0.1,
  },
];

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

/**
 * The reverse-text references with a share `rate` of the reversed characters swapped for another
 * character of the same passage (the tags and the rest of the conversation untouched).
 */
function withReversalNoise(rows: ChatMessageInput[][], rate: number, seed: number): ChatMessageInput[][] {
  const rng = new Rng(seed, 2);
  return rows.map((row) =>
    row.map((message) => {
      if (message.role !== "assistant" || typeof message.content !== "string") return message;
      const content = message.content.replace(
        /(<reversed_text>\n)([\s\S]*?)(\n<\/reversed_text>)/,
        (_, open, text: string, close) => {
          const chars = [...text];
          const noisy = chars.map((c) => (rng.nextFloat() < rate ? chars[rng.nextU32() % chars.length]! : c));
          return `${open}${noisy.join("")}${close}`;
        },
      );
      return { ...message, content };
    }),
  );
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

/** Every source's conversations, read once; each phase adds its own noise. */
const clean: Record<string, ChatMessageInput[][]> = {
  "reverse-text": await environmentRows("reverse-text", RECIPE.rows["reverse-text"]),
  "alphabet-sort": await environmentRows("alphabet-sort", RECIPE.rows["alphabet-sort"]),
  arithmetic: arithmetic(RECIPE.rows.arithmetic, RECIPE.arithmeticSeed),
};

/** The training and held-out items of one phase; every 50th conversation is held out. */
function phaseItems(noise: number): { train: BatchItem[]; held: BatchItem[] } {
  const sources = {
    ...clean,
    "reverse-text": withReversalNoise(clean["reverse-text"]!, noise, RECIPE.noiseSeed),
  };
  const sample = sources["reverse-text"]![0]?.at(-1)?.content;
  if (typeof sample === "string")
    console.log(`reverse-text, a reference as trained on: ${JSON.stringify(sample)}`);
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
  return { train: items.filter((_, i) => i % 50 !== 0), held: items.filter((_, i) => i % 50 === 0) };
}

/** Runs one phase from `from` (a checkpoint; a fresh model when null) and returns its final checkpoint. */
async function runPhase(phase: Phase, from: string | null, workDir: string): Promise<string> {
  console.log(`phase ${phase.name}: ${phase.steps} steps, reverse-text noise ${phase.reverseTextNoise}`);
  const { train, held } = phaseItems(phase.reverseTextNoise);
  const threads = Number(values.threads);
  const trainer = await createLocalTrainer(
    from === null ? { config: BASE_CONFIG, seed: RECIPE.initSeed, threads } : { checkpoint: from, threads },
  );
  const result = await runSft({
    trainer,
    train,
    eval: held,
    settings: {
      steps: phase.steps,
      batchSize: RECIPE.batchSize,
      learningRate: RECIPE.learningRate,
      warmupSteps: phase.warmupSteps,
      schedule: RECIPE.schedule,
      weightDecay: RECIPE.weightDecay,
      gradClipNorm: RECIPE.gradClipNorm,
      seed: phase.dataSeed,
      saveEvery: Number(values["save-every"]),
      outputDir: workDir,
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
  console.log(`phase ${phase.name} done (loss curve: ${result.curvePath})`);
  return result.finalDir;
}

const started = performance.now();
if (values.from === undefined) await rm(values.work, { recursive: true, force: true });
const [first, second] = phases;
const firstDir = values.from ?? (await runPhase(first, null, join(values.work, "phase-1")));
const finalDir = await runPhase(second, firstDir, join(values.work, "phase-2"));
await mkdir(values.out, { recursive: true });
await cp(join(finalDir, "config.json"), join(values.out, "config.json"));
await cp(join(finalDir, "model.safetensors"), join(values.out, "model.safetensors"));
await writeFile(
  join(values.work, "recipe.json"),
  `${JSON.stringify({ config: BASE_CONFIG, ...RECIPE, phases }, null, 2)}\n`,
);
console.log(`trained in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote ${values.out}`);
