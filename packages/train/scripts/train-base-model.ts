/**
 * Trains the shipped base model (packages/engine/models/base) from scratch, deterministically, by
 * supervised fine-tuning of a fresh small transformer on the bundled environments' own prompts and
 * reference completions plus synthetic data (base-model-data.ts), in four phases:
 *
 *   clean  1,600 steps on reverse-text, alphabet-sort and short arithmetic as they are: the model
 *          learns the formats and most of the reversing;
 *   noisy  200 more steps (fresh optimizer) where a tenth of the reversed characters are swapped
 *          for other characters of the passage: the model keeps its right answer as the most
 *          likely one but samples mistakes, like a pretrained model that has seen imperfect text;
 *   tools  600 steps on tool-arithmetic answered with its calculator and on "repeat exactly"
 *          copies, with some of the earlier data: the model learns to call a tool with text copied
 *          from the question and to box the tool's result;
 *   habit  150 steps where only a quarter of tool-arithmetic's rows call the calculator and the
 *          rest answer from the head: the model can use the tool but mostly does not, so its most
 *          likely (greedy) answer is wrong, the habit RL can teach.
 *
 * The model must be weak enough for RL to matter; packages/engine/models/README.md has the
 * measured rewards and why the recipe is what it is.
 *
 *   npx tsx --conditions=vf-source packages/train/scripts/train-base-model.ts [--steps N] [--noisy-steps N]
 *       [--start-at PHASE --from CHECKPOINT] [--out DIR] [--work DIR] [--threads N] [--save-every N]
 *
 * --start-at skips the phases before PHASE and starts it from --from (a checkpoint folder).
 * Checkpoints, metrics.jsonl and loss-curve.svg of each phase land under
 * outputs/base-model/phase-N/, and the final checkpoint is copied to packages/engine/models/base
 * (or --out).
 */
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  BASE_MODEL_DIR,
  type BatchItem,
  type ChatMessageInput,
  createLocalTrainer,
  tokenizer,
} from "@vf-rl/engine";
import { conversationItem, runSft } from "@vf-rl/train/supervised";
import {
  arithmetic,
  environmentRows,
  repeatRows,
  toolArithmeticRows,
  withReversalNoise,
} from "./base-model-data.ts";

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
  /** Constant after warmup: the model after N steps is the same whatever the run's length. */
  schedule: "constant" as const,
  weightDecay: 0.01,
  gradClipNorm: 1,
  /** Rows of each source: environments' training rows, and synthetic arithmetic problems. */
  rows: { "reverse-text": 7000, "alphabet-sort": 1500, arithmetic: 1500 },
  arithmeticSeed: 0,
  noiseSeed: 0,
  repeatSeed: 0,
  toolSeed: 0,
};

/** The data of a phase: whole sources, or the first rows of them. */
interface PhaseData {
  /**
   * The share of reversed characters replaced by another character of the same passage. Like the
   * imperfect text a pretrained model has seen, it leaves the model sampling mistakes at about this
   * rate while its most likely answer stays the right one: the gap RL for a verifiable reward
   * closes first.
   */
  reverseTextNoise: number;
  /** How many rows of each earlier source (all when absent). */
  replay?: { "reverse-text": number; "alphabet-sort": number; arithmetic: number };
  /** "Repeat exactly" copies, one per reverse-text passage up to this many. */
  repeat?: number;
  /** tool-arithmetic training rows from `skip`, a share `callShare` of them calling the calculator. */
  toolArithmetic?: { skip: number; count: number; callShare: number };
}

/** One supervised run; each starts from the previous one's weights with a fresh optimizer. */
interface Phase {
  name: string;
  steps: number;
  warmupSteps: number;
  learningRate: number;
  dataSeed: number;
  data: PhaseData;
}

const { values } = parseArgs({
  options: {
    steps: { type: "string" },
    out: { type: "string", default: BASE_MODEL_DIR },
    work: { type: "string", default: "outputs/base-model" },
    threads: { type: "string", default: "2" },
    "save-every": { type: "string", default: "100" },
    "noisy-steps": { type: "string", default: "200" },
    "start-at": { type: "string" },
    from: { type: "string" },
  },
});
const replayShare = { "reverse-text": 1000, "alphabet-sort": 250, arithmetic: 250 };
const phases: Phase[] = [
  {
    name: "clean",
    steps: values.steps ? Number(values.steps) : 1600,
    warmupSteps: 50,
    learningRate: 3e-3,
    dataSeed: 0,
    data: { reverseTextNoise: 0 },
  },
  {
    name: "noisy",
    steps: Number(values["noisy-steps"]),
    warmupSteps: 20,
    learningRate: 3e-3,
    dataSeed: 1,
    data: { reverseTextNoise: 0.1 },
  },
  {
    name: "tools",
    steps: 600,
    warmupSteps: 20,
    learningRate: 2e-3,
    dataSeed: 2,
    data: {
      reverseTextNoise: 0.1,
      replay: replayShare,
      repeat: 6000,
      toolArithmetic: { skip: 0, count: 3000, callShare: 1 },
    },
  },
  {
    name: "habit",
    steps: 150,
    warmupSteps: 10,
    learningRate: 2e-3,
    dataSeed: 3,
    data: {
      reverseTextNoise: 0.1,
      replay: replayShare,
      repeat: 2000,
      toolArithmetic: { skip: 3000, count: 2000, callShare: 0.25 },
    },
  },
];
const startAt = values["start-at"] === undefined ? 0 : phases.findIndex((p) => p.name === values["start-at"]);
if (startAt < 0)
  throw new Error(`--start-at: no phase "${values["start-at"]}" (${phases.map((p) => p.name).join(", ")})`);
if (startAt > 0 && values.from === undefined)
  throw new Error("--start-at needs --from, the checkpoint to start from");

/** Every source's conversations, read once; each phase takes its share and adds its own noise. */
const clean: Record<string, ChatMessageInput[][]> = {
  "reverse-text": await environmentRows("reverse-text", RECIPE.rows["reverse-text"]),
  "alphabet-sort": await environmentRows("alphabet-sort", RECIPE.rows["alphabet-sort"]),
  arithmetic: arithmetic(RECIPE.rows.arithmetic, RECIPE.arithmeticSeed),
};
const passages = clean["reverse-text"]!.map((row) => String(row.find((m) => m.role === "user")?.content));

/** The conversations of a phase, by source. */
async function phaseSources(data: PhaseData): Promise<Record<string, ChatMessageInput[][]>> {
  const noisy = withReversalNoise(clean["reverse-text"]!, data.reverseTextNoise, RECIPE.noiseSeed);
  const earlier = { ...clean, "reverse-text": noisy };
  const sources: Record<string, ChatMessageInput[][]> = {};
  for (const [name, rows] of Object.entries(earlier)) {
    const count = data.replay?.[name as keyof typeof replayShare];
    sources[name] = count === undefined ? rows : rows.slice(0, count);
  }
  if (data.repeat) sources.repeat = repeatRows(passages.slice(0, data.repeat), RECIPE.repeatSeed);
  if (data.toolArithmetic) {
    sources["tool-arithmetic"] = await toolArithmeticRows({ ...data.toolArithmetic, seed: RECIPE.toolSeed });
  }
  return sources;
}

/** The training and held-out items of one phase; every 50th conversation is held out. */
async function phaseItems(data: PhaseData): Promise<{ train: BatchItem[]; held: BatchItem[] }> {
  const sources = await phaseSources(data);
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
  console.log(`phase ${phase.name}: ${phase.steps} steps`);
  const { train, held } = await phaseItems(phase.data);
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
      learningRate: phase.learningRate,
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
if (startAt === 0) await rm(values.work, { recursive: true, force: true });
let from: string | null = values.from ?? null;
for (const [i, phase] of phases.entries()) {
  if (i < startAt) continue;
  from = await runPhase(phase, from, join(values.work, `phase-${i + 1}`));
}
await mkdir(values.out, { recursive: true });
await cp(join(from!, "config.json"), join(values.out, "config.json"));
await cp(join(from!, "model.safetensors"), join(values.out, "model.safetensors"));
await writeFile(
  join(values.work, "recipe.json"),
  `${JSON.stringify({ config: BASE_CONFIG, ...RECIPE, phases }, null, 2)}\n`,
);
console.log(`trained in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote ${values.out}`);
