/**
 * What `vf sft` does: progress on stderr, and in the output folder checkpoints, metrics.jsonl and
 * loss-curve.svg. Ctrl-C stops after the current step and still saves the final checkpoint.
 */
import { readFile } from "node:fs/promises";
import { UserError } from "@vf-rl/core/errors";
import {
  BASE_MODEL_DIR,
  type BatchItem,
  conversationItem,
  createLocalTrainer,
  type LocalTrainer,
  type ModelConfig,
  parseModelConfig,
  runSft,
  type SftProgress,
  tokenizer,
} from "@vf-rl/engine";
import { vfErrorOf } from "@vf-rl/train/engine-errors";
import { onInterrupt } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";
import { loadSftConversations } from "./sft-sources.ts";

/** The flags of `vf sft`, as commander parses them. */
export interface SftFlags {
  data: string[];
  evalData: string[];
  env: string[];
  envArgs: Record<string, unknown>;
  numExamples?: number;
  minReward?: number;
  bestOfGroup?: boolean;
  model?: string;
  config?: string;
  initSeed: number;
  steps: number;
  batchSize: number;
  lr: number;
  warmup?: number;
  schedule: string;
  weightDecay: number;
  clip: number;
  seed: number;
  evalEvery?: number;
  evalSize: number;
  saveEvery: number;
  output: string;
  threads: number;
}

export async function runSftCommand(flags: SftFlags, io: Output): Promise<void> {
  if (flags.schedule !== "cosine" && flags.schedule !== "constant") {
    throw new UserError(`--schedule must be cosine or constant, got "${flags.schedule}"`);
  }
  if (flags.model !== undefined && flags.config !== undefined) {
    throw new UserError("--model and --config both say where the model starts: pass one of them");
  }
  const sources = await asUserError(() =>
    loadSftConversations({
      dataFiles: flags.data,
      evalFiles: flags.evalData,
      envIds: flags.env,
      envArgs: flags.envArgs,
      ...(flags.numExamples !== undefined ? { numExamples: flags.numExamples } : {}),
      filter: {
        ...(flags.minReward !== undefined ? { minReward: flags.minReward } : {}),
        ...(flags.bestOfGroup ? { bestOfGroup: true } : {}),
      },
    }),
  );
  for (const note of sources.notes) io.err(note);
  const trainer = await startTrainer(flags);
  try {
    const { train, eval: held } = examples(sources, trainer.config, flags.evalSize, io);
    io.err(
      `training ${describe(trainer.config)} on ${train.length} conversations (${held.length} held out), ${flags.steps} steps of ${flags.batchSize}`,
    );
    const interrupt = onInterrupt(io);
    try {
      const result = await runSft({
        trainer,
        train,
        eval: held,
        settings: {
          steps: flags.steps,
          batchSize: flags.batchSize,
          learningRate: flags.lr,
          ...(flags.warmup !== undefined ? { warmupSteps: flags.warmup } : {}),
          schedule: flags.schedule,
          weightDecay: flags.weightDecay,
          gradClipNorm: flags.clip,
          seed: flags.seed,
          ...(flags.evalEvery !== undefined ? { evalEvery: flags.evalEvery } : {}),
          saveEvery: flags.saveEvery,
          outputDir: flags.output,
        },
        onStep: (progress) => report(io, progress),
        signal: interrupt.signal,
      });
      if (io.isTTY) io.status(null);
      const last = result.evalLoss.at(-1);
      io.err(
        `${result.steps} steps: train loss ${fmt(result.trainLoss.at(-1)?.loss)}${last ? `, eval loss ${fmt(last.loss)}` : ""}`,
      );
      io.err(`loss curve: ${result.curvePath}`);
      io.out(result.finalDir);
    } finally {
      interrupt.dispose();
    }
  } finally {
    await trainer.close();
  }
}

/** Runs `call`, turning the engine's errors (bad data, config or checkpoint) into one-line user errors. */
async function asUserError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw vfErrorOf(error);
  }
}

/** The trainer: from a checkpoint (default the base model) or a fresh config. */
function startTrainer(flags: SftFlags): Promise<LocalTrainer> {
  return asUserError(async () => {
    if (flags.config === undefined) {
      return await createLocalTrainer({ checkpoint: flags.model ?? BASE_MODEL_DIR, threads: flags.threads });
    }
    const text = flags.config.trimStart().startsWith("{") ? flags.config : await readConfigFile(flags.config);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new UserError(
        `--config is not JSON (${(error as Error).message}): give a JSON object or a config.json file`,
      );
    }
    const config = parseModelConfig({ vocabSize: tokenizer.vocabSize, ...(json as object) });
    return await createLocalTrainer({ config, seed: flags.initSeed, threads: flags.threads });
  });
}

async function readConfigFile(path: string): Promise<string> {
  return readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UserError(
      `cannot read --config ${path} (${error.code ?? error.message}): pass JSON or a config.json file`,
    );
  });
}

/** Training and eval sequences; those longer than the context are left out, with a note. */
function examples(
  sources: Awaited<ReturnType<typeof loadSftConversations>>,
  config: ModelConfig,
  evalSize: number,
  io: Output,
): { train: BatchItem[]; eval: BatchItem[] } {
  const fit = (conversations: typeof sources.train, what: string): BatchItem[] => {
    const items = conversations.map((messages) => conversationItem(messages));
    const kept = items.filter((item) => item.tokens.length - 1 <= config.maxSeqLen);
    if (kept.length < items.length) {
      io.err(
        `left out ${items.length - kept.length} of ${items.length} ${what} conversations longer than the model's context of ${config.maxSeqLen} tokens`,
      );
    }
    return kept;
  };
  let train = fit(sources.train, "training");
  let held = fit(sources.eval, "eval");
  if (train.length === 0) {
    throw new UserError(
      `every training conversation is longer than the model's context of ${config.maxSeqLen} tokens: use shorter data or a model with a larger maxSeqLen`,
    );
  }
  if (held.length === 0 && evalSize > 0 && train.length > 1) {
    // hold out evenly spaced conversations, at most a tenth of the data
    const count = Math.min(evalSize, Math.floor(train.length / 10));
    const every = count > 0 ? train.length / count : Infinity;
    const picked = new Set(Array.from({ length: count }, (_, i) => Math.floor(i * every)));
    held = train.filter((_, i) => picked.has(i));
    train = train.filter((_, i) => !picked.has(i));
  }
  return { train, eval: held };
}

function report(io: Output, p: SftProgress): void {
  const line =
    `step ${p.step}/${p.totalSteps}  loss ${fmt(p.loss)}  lr ${p.learningRate.toExponential(2)}  ` +
    `${Math.round(p.tokensPerSecond)} tok/s${p.evalLoss !== null ? `  eval ${fmt(p.evalLoss)}` : ""}`;
  if (io.isTTY) {
    io.status(line);
    if (p.evalLoss !== null || p.checkpoint !== null) io.status(null);
  } else if (p.evalLoss !== null || p.step === p.totalSteps) {
    io.err(line);
  }
  if (p.checkpoint !== null) io.err(`saved ${p.checkpoint}`);
}

function describe(c: ModelConfig): string {
  return `a model of dModel ${c.dModel}, ${c.nLayers} layers, ${c.nHeads} heads, context ${c.maxSeqLen}`;
}

function fmt(value: number | undefined): string {
  return value === undefined ? "-" : value.toFixed(4);
}
