/**
 * Supervised fine-tuning over the trainer protocol: batches drawn from a seeded shuffle of the
 * examples (reshuffled each epoch), cross-entropy on the trained tokens, AdamW with a warmup then
 * cosine or constant learning rate, the eval loss every few steps, checkpoints every N steps and at
 * the end, and in the output folder a `metrics.jsonl` (one line per step) and `loss-curve.svg`.
 * It knows nothing of where the examples come from (sft-sources.ts, sft-example.ts; fine-tune.ts
 * puts them together for `vf sft`).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { issueLines } from "@vf-rl/core/config";
import { UserError } from "@vf-rl/core/errors";
import { type BatchItem, learningRateAt, Rng, type Trainer } from "@vf-rl/engine";
import { z } from "zod";
import { type LossPoint, lossCurveSvg } from "./loss-curve.ts";

/** The settings of a run. */
export const SftSettings = z
  .object({
    /** Optimizer steps to take. */
    steps: z.number().int().positive(),
    /** Examples per step (default 32). */
    batchSize: z.number().int().positive().default(32),
    /** Peak learning rate (default 1e-3). */
    learningRate: z.number().positive().default(1e-3),
    /** Steps of linear warmup (default: a tenth of the steps, at most 100). */
    warmupSteps: z.number().int().nonnegative().optional(),
    /** After warmup: "cosine" decay to minLrRatio × peak (default), or "constant". */
    schedule: z.enum(["cosine", "constant"]).default("cosine"),
    /** Floor of the cosine decay as a share of the peak (default 0.1). */
    minLrRatio: z.number().min(0).max(1).default(0.1),
    /** AdamW's decoupled weight decay (default 0.01). */
    weightDecay: z.number().nonnegative().default(0.01),
    /** Clip the gradient norm to this (default 1; 0 turns it off). */
    gradClipNorm: z.number().nonnegative().default(1),
    /** Seed of the shuffle (default 0). */
    seed: z.number().int().default(0),
    /** Measure the eval loss every this many steps, and at the start and the end (default: steps / 10). */
    evalEvery: z.number().int().positive().optional(),
    /** Save a checkpoint every this many steps (default 0: only the final one). */
    saveEvery: z.number().int().nonnegative().default(0),
    /** Where checkpoints (`step-N/`, `final/`), metrics.jsonl and loss-curve.svg go. */
    outputDir: z.string().min(1),
  })
  .strict();
export type SftSettings = z.infer<typeof SftSettings>;
export type SftSettingsInput = z.input<typeof SftSettings>;

/** What one step reports to `onStep`. */
export interface SftProgress {
  step: number;
  totalSteps: number;
  /** Mean cross-entropy over this step's trained tokens. */
  loss: number;
  /** Eval loss measured after this step, else null. */
  evalLoss: number | null;
  learningRate: number;
  gradNorm: number;
  /** Tokens (prompt and answer) of this step's examples. */
  tokens: number;
  /** Tokens (prompt and answer) trained per second over the run so far, eval time left out. */
  tokensPerSecond: number;
  elapsedMs: number;
  /** A checkpoint saved after this step, else null. */
  checkpoint: string | null;
}

/** What a run leaves behind. */
export interface SftResult {
  /** Steps taken (fewer than asked when stopped by the signal). */
  steps: number;
  /** The final checkpoint (`<outputDir>/final`). */
  finalDir: string;
  /** Every checkpoint saved, the final one last. */
  checkpoints: string[];
  trainLoss: LossPoint[];
  evalLoss: LossPoint[];
  /** The loss curve, `<outputDir>/loss-curve.svg`. */
  curvePath: string;
}

/**
 * Where a run stands after a step: what a caller's checkpoint keeps, and what a resumed run is
 * given back to continue exactly (the data order is replayed from the seed, the learning rate is a
 * function of the step).
 */
export interface SftStanding {
  /** Steps done. */
  step: number;
  /** The curve so far. */
  trainLoss: LossPoint[];
  evalLoss: LossPoint[];
  /** Time of the steps so far, over every attempt. */
  elapsedMs: number;
}

/** Options of `runSft`. */
export interface SftRunOptions {
  /** The model to train (any Trainer: in-process or remote). */
  trainer: Trainer;
  /** Training examples (see `conversationItem`). */
  train: readonly BatchItem[];
  /** Held-out examples for the eval loss (may be empty). */
  eval: readonly BatchItem[];
  settings: SftSettingsInput;
  /** Called after every step, and awaited. */
  onStep?: (progress: SftProgress) => void | Promise<void>;
  /** Stops after the current step; the final checkpoint is still saved. */
  signal?: AbortSignal;
  /**
   * Continues a run stopped after `resume.step` steps, whose trainer already holds that step's
   * whole state (loadState): its metrics.jsonl keeps the lines up to that step.
   */
  resume?: SftStanding;
  /**
   * Saves a checkpoint from which the run can resume (the trainer's whole state, not only its
   * weights), instead of weights in `step-N/`: after onStep at every saveEvery steps, at the last
   * step, and when the signal stops the run. Returns the checkpoint's folder.
   */
  saveCheckpoint?: (standing: SftStanding) => Promise<string>;
}

/**
 * Runs supervised fine-tuning.
 *
 * @example
 * const trainer = await createLocalTrainer({ checkpoint: BASE_MODEL_DIR, threads: 2 });
 * const train = conversations.map((c) => conversationItem(c.messages));
 * const result = await runSft({ trainer, train, eval: [], settings: { steps: 200, outputDir: "outputs/sft" } });
 */
export async function runSft(options: SftRunOptions): Promise<SftResult> {
  const parsed = SftSettings.safeParse(options.settings);
  if (!parsed.success) {
    throw new UserError(`invalid SFT settings: ${issueLines(parsed.error)[0]}: fix this setting`);
  }
  const s = parsed.data;
  if (options.train.length === 0) throw new UserError("no training examples: give at least one");
  const warmupSteps = s.warmupSteps ?? Math.min(100, Math.floor(s.steps / 10));
  const evalEvery = s.evalEvery ?? Math.max(1, Math.floor(s.steps / 10));
  const schedule =
    s.schedule === "cosine"
      ? {
          type: "cosine" as const,
          peakLr: s.learningRate,
          warmupSteps,
          totalSteps: s.steps,
          minLr: s.learningRate * s.minLrRatio,
        }
      : { type: "constant" as const, peakLr: s.learningRate, warmupSteps };
  await mkdir(s.outputDir, { recursive: true });
  const metricsPath = join(s.outputDir, "metrics.jsonl");
  const curvePath = join(s.outputDir, "loss-curve.svg");
  const resume = options.resume;
  await writeFile(metricsPath, resume ? await linesUpTo(metricsPath, resume.step) : "");
  const batches = new BatchOrder(options.train.length, s.batchSize, s.seed);
  for (let done = 0; done < (resume?.step ?? 0); done++) batches.next(); // the order the steps done took
  const trainLoss: LossPoint[] = [...(resume?.trainLoss ?? [])];
  const evalLoss: LossPoint[] = [...(resume?.evalLoss ?? [])];
  const checkpoints: string[] = [];
  const writeCurve = () =>
    writeFile(curvePath, lossCurveSvg({ title: `SFT: ${s.outputDir}`, train: trainLoss, eval: evalLoss }));

  if (options.eval.length > 0 && !resume)
    evalLoss.push({ step: 0, loss: await meanLoss(options.trainer, options.eval, s.batchSize) });
  const started = performance.now() - (resume?.elapsedMs ?? 0);
  let tokens = 0;
  let trainMs = 0;
  let step = resume?.step ?? 0;
  while (step < s.steps && !options.signal?.aborted) {
    const batch = batches.next().map((i) => options.train[i]!);
    const learningRate = learningRateAt(schedule, step);
    const stepStarted = performance.now();
    const result = await options.trainer.forwardBackward(batch, { type: "cross_entropy" });
    const optim = await options.trainer.optimStep({
      learningRate,
      weightDecay: s.weightDecay,
      gradClipNorm: s.gradClipNorm,
    });
    trainMs += performance.now() - stepStarted;
    step += 1;
    tokens += batch.reduce((sum, item) => sum + item.tokens.length, 0);
    trainLoss.push({ step, loss: result.loss });
    const last = step === s.steps || options.signal?.aborted === true;
    let measured: number | null = null;
    if (options.eval.length > 0 && (step % evalEvery === 0 || last)) {
      measured = await meanLoss(options.trainer, options.eval, s.batchSize);
      evalLoss.push({ step, loss: measured });
    }
    let checkpoint: string | null = null;
    const due = s.saveEvery > 0 && step % s.saveEvery === 0;
    if (!options.saveCheckpoint && due && !last) {
      checkpoint = join(s.outputDir, `step-${step}`);
      await options.trainer.saveWeights(checkpoint);
      checkpoints.push(checkpoint);
    }
    const elapsedMs = performance.now() - started;
    const stepTokens = batch.reduce((sum, item) => sum + item.tokens.length, 0);
    const line = {
      step,
      loss: result.loss,
      learning_rate: learningRate,
      grad_norm: optim.gradNorm,
      tokens: stepTokens,
      ...(measured !== null ? { eval_loss: measured } : {}),
      elapsed_ms: Math.round(elapsedMs),
    };
    await writeFile(metricsPath, `${JSON.stringify(line)}\n`, { flag: "a" });
    if (measured !== null || checkpoint !== null) await writeCurve();
    await options.onStep?.({
      step,
      totalSteps: s.steps,
      loss: result.loss,
      evalLoss: measured,
      learningRate,
      gradNorm: optim.gradNorm,
      tokens: stepTokens,
      tokensPerSecond: tokens / (trainMs / 1000),
      elapsedMs,
      checkpoint,
    });
    // after onStep, so that what it recorded of this step is in the checkpoint (and a stop asked
    // meanwhile is seen)
    if (options.saveCheckpoint && (due || step === s.steps || options.signal?.aborted)) {
      checkpoints.push(await options.saveCheckpoint({ step, trainLoss, evalLoss, elapsedMs }));
    }
  }
  const finalDir = join(s.outputDir, "final");
  await options.trainer.saveWeights(finalDir);
  checkpoints.push(finalDir);
  await writeCurve();
  return { steps: step, finalDir, checkpoints, trainLoss, evalLoss, curvePath };
}

/** The lines of a metrics.jsonl of this loop up to `step` (none when the file is missing). */
async function linesUpTo(path: string, step: number): Promise<string> {
  const text = await readFile(path, "utf8").catch(() => "");
  const kept = text.split("\n").filter((line) => {
    if (line.trim() === "") return false;
    try {
      return ((JSON.parse(line) as { step?: unknown }).step as number) <= step;
    } catch {
      return false; // a killed run's partial last line
    }
  });
  return kept.map((line) => `${line}\n`).join("");
}

/** Mean cross-entropy over every trained token of `items`, in chunks of `chunk` items. */
export async function meanLoss(
  trainer: Trainer,
  items: readonly BatchItem[],
  chunk: number,
): Promise<number> {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < items.length; i += chunk) {
    const result = await trainer.forward(items.slice(i, i + chunk), { type: "cross_entropy" });
    sum += result.loss * result.numTokens;
    count += result.numTokens;
  }
  return count > 0 ? sum / count : Number.NaN;
}

/** Example indices in batches: a seeded shuffle, walked through and reshuffled at each epoch's end. */
class BatchOrder {
  private order: number[] = [];
  private at = 0;
  private readonly rng: Rng;

  constructor(
    private readonly size: number,
    private readonly batchSize: number,
    seed: number,
  ) {
    this.rng = new Rng(seed);
  }

  next(): number[] {
    const batch: number[] = [];
    while (batch.length < Math.min(this.batchSize, this.size)) {
      if (this.at === this.order.length) this.reshuffle();
      batch.push(this.order[this.at++]!);
    }
    return batch;
  }

  private reshuffle(): void {
    this.order = Array.from({ length: this.size }, (_, i) => i);
    for (let i = this.size - 1; i > 0; i--) {
      const j = this.rng.nextU32() % (i + 1);
      [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
    }
    this.at = 0;
  }
}
