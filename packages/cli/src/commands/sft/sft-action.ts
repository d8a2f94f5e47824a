/**
 * What `vf sft` does once its flags are parsed: hands them to train's `fineTune` (which reads the
 * data, opens the model and runs the loop), shows progress on stderr and prints the final
 * checkpoint on stdout, after the vf eval command that evaluates it (on stderr). Ctrl-C stops after the current step and still saves the final checkpoint.
 */
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import type { SftProgress, StartingModel } from "@vf-rl/train/supervised";
import { checkCheckpointFolder, checkInputPath, makeOutputFolder } from "../../path-checks.ts";
import { onInterrupt } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";
import { evalCommands, type TrainedEnv } from "../../vf-command.ts";

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
  if (flags.data.length === 0 && flags.env.length === 0) {
    throw new UserError(
      "no training data: pass --data FILE.jsonl|RUN_DIR or --env ID (e.g. --env reverse-text)",
    );
  }
  await checkPaths(flags);
  const model = await startingModel(flags);
  const { fineTune, UnfilterableDataError } = await import("@vf-rl/train/supervised");
  const interrupt = onInterrupt(io);
  try {
    const result = await fineTune({
      data: {
        dataFiles: flags.data,
        evalFiles: flags.evalData,
        envIds: flags.env,
        envArgs: flags.envArgs,
        ...(flags.numExamples !== undefined ? { numExamples: flags.numExamples } : {}),
        filter: {
          ...(flags.minReward !== undefined ? { minReward: flags.minReward } : {}),
          ...(flags.bestOfGroup ? { bestOfGroup: true } : {}),
        },
      },
      ...(model ? { model } : {}),
      threads: flags.threads,
      evalSize: flags.evalSize,
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
      log: (line) => io.err(line),
      onStep: (progress) => report(io, progress),
      signal: interrupt.signal,
    }).catch((error: unknown) => {
      // the filter is two of this command's flags: name them
      if (!(error instanceof UnfilterableDataError)) throw error;
      throw new UserError(
        `${error.path} has no rewards, so --min-reward and --best-of-group cannot filter it: pass a run folder or results.jsonl of vf eval -s`,
        { cause: error },
      );
    });
    if (io.isTTY) io.status(null);
    const last = result.evalLoss.at(-1);
    io.err(
      `${result.steps} steps: train loss ${fmt(result.trainLoss.at(-1)?.loss)}${last ? `, eval loss ${fmt(last.loss)}` : ""}`,
    );
    io.err(`loss curve: ${result.curvePath}`);
    for (const command of evalCommands(await trainedEnvs(flags), result.finalDir)) {
      io.err(`evaluate it: ${command}`);
    }
    io.out(result.finalDir);
  } finally {
    interrupt.dispose();
  }
}

/** The environments the model was fine-tuned on: --env's, and those of the saved runs in --data. */
async function trainedEnvs(flags: SftFlags): Promise<TrainedEnv[]> {
  const envs: TrainedEnv[] = flags.env.map((id) => ({ id, args: flags.envArgs }));
  const { readMetadata } = await import("@vf-rl/core/results");
  for (const path of flags.data) {
    const dir = (await stat(path)).isDirectory() ? path : dirname(path); // a run folder, or its results.jsonl
    if (!existsSync(join(dir, "metadata.json"))) continue; // conversations: no environment
    const { metadata } = await readMetadata(dir);
    envs.push({ id: metadata.env_id, args: metadata.env_args });
  }
  return envs;
}

/** Every path of the flags, before the model or data is read (a named pipe would block for ever). */
async function checkPaths(flags: SftFlags): Promise<void> {
  for (const path of flags.data) {
    await checkInputPath(path, {
      label: "--data",
      accept: "file or folder",
      fix: 'pass a JSONL file ({"messages": [...]} a line) or a run folder of vf eval -s',
    });
  }
  for (const path of flags.evalData) {
    await checkInputPath(path, { label: "--eval-data", fix: "pass a JSONL file of held-out conversations" });
  }
  if (flags.config !== undefined && !flags.config.trimStart().startsWith("{")) {
    await checkInputPath(flags.config, { label: "--config", fix: "pass JSON or a config.json file" });
  }
  if (flags.model !== undefined) await checkCheckpointFolder(flags.model);
  await makeOutputFolder(flags.output, { label: "-o", fix: "choose a folder you can write" });
}

/** --model (a checkpoint folder) or --config (a fresh model: JSON, or a config.json file); none: the base model. */
async function startingModel(flags: SftFlags): Promise<StartingModel | undefined> {
  if (flags.model !== undefined) return { type: "checkpoint", dir: flags.model };
  if (flags.config === undefined) return undefined;
  const text = flags.config.trimStart().startsWith("{") ? flags.config : await readConfigFile(flags.config);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(
      `--config is not JSON (${(error as Error).message}): give a JSON object or a config.json file`,
    );
  }
  return { type: "fresh", config: json as Record<string, unknown>, seed: flags.initSeed };
}

async function readConfigFile(path: string): Promise<string> {
  return readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UserError(
      `cannot read --config ${path} (${error.code ?? error.message}): pass JSON or a config.json file`,
    );
  });
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

function fmt(value: number | undefined): string {
  return value === undefined ? "-" : value.toFixed(4);
}
