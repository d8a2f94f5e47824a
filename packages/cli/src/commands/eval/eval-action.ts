/**
 * What `vf eval` does: resolve the flags (or a config's [[eval]] blocks) to evaluations, run each,
 * and upload it with --push. Loaded only when the command runs, so `vf --help` stays fast.
 */
import { EXIT_INTERRUPTED, UsageError } from "../../cli-errors.ts";
import { onInterrupt } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";
import { loadEvalConfig } from "./eval-config.ts";
import type { EvalPushFlags } from "./eval-push.ts";
import { EvalSpec, type RunSettings } from "./eval-spec.ts";
import { reportUploader } from "./report-upload.ts";
import { runEval } from "./run-eval.ts";

/** The flags of `vf eval`, as commander parses them. */
export interface EvalFlags extends EvalPushFlags {
  model?: string;
  apiBaseUrl?: string;
  apiKeyVar?: string;
  endpointsPath?: string;
  numExamples?: number;
  rolloutsPerExample?: number;
  maxConcurrent?: number;
  maxTokens?: number;
  temperature?: number;
  samplingArgs?: Record<string, unknown>;
  envArgs?: Record<string, unknown>;
  extraEnvKwargs?: Record<string, unknown>;
  saveResults?: boolean;
  resume?: boolean | string;
  outputDir: string;
  stateColumns?: string[];
  timeout?: number;
  maxRetries?: number;
  shuffle?: boolean;
  shuffleSeed?: number;
  independentScoring?: boolean;
  verbose?: boolean;
  abbreviatedSummary?: boolean;
  header?: Record<string, string>;
  json?: boolean;
}

/** Flags that describe one evaluation; with a config file they belong in the file. */
const SPEC_FLAGS: Array<keyof EvalFlags> = [
  "model",
  "apiBaseUrl",
  "apiKeyVar",
  "endpointsPath",
  "numExamples",
  "rolloutsPerExample",
  "maxTokens",
  "temperature",
  "samplingArgs",
  "envArgs",
  "extraEnvKwargs",
  "stateColumns",
  "timeout",
  "shuffle",
  "shuffleSeed",
  "independentScoring",
  "header",
];

export async function runEvalCommand(
  env: string,
  flags: EvalFlags,
  { io, setExit }: { io: Output; setExit: (code: number) => void },
): Promise<void> {
  const settings: RunSettings = {
    save: Boolean(flags.saveResults || flags.push),
    resume: flags.resume ?? false,
    outputDir: flags.outputDir,
    json: Boolean(flags.json),
    verbose: Boolean(flags.verbose),
    abbreviated: Boolean(flags.abbreviatedSummary),
  };
  const specs = env.endsWith(".toml") ? await configSpecs(env, flags) : [specFromFlags(env, flags)];
  const upload = await reportUploader(
    flags,
    io,
    specs.map((spec) => spec.envId),
  );
  const interrupt = onInterrupt(io);
  try {
    for (const spec of specs) {
      const result = await runEval(spec, settings, io, interrupt.signal);
      if (result.cancelled) {
        setExit(EXIT_INTERRUPTED);
        return;
      }
      await upload?.(spec.envId, result);
    }
  } finally {
    interrupt.dispose();
  }
}

async function configSpecs(path: string, flags: EvalFlags): Promise<EvalSpec[]> {
  const given = SPEC_FLAGS.filter((key) => flags[key] !== undefined);
  if (given.length > 0) {
    throw new UsageError(
      `with a config file, set ${given.map((k) => `--${kebab(k)}`).join(", ")} in ${path} instead of on the command line`,
    );
  }
  const blocks = await loadEvalConfig(path);
  return blocks.map((block) => {
    const spec = EvalSpec.parse({
      ...block,
      ...(flags.maxConcurrent ? { maxConcurrent: flags.maxConcurrent } : {}),
    });
    if (flags.maxRetries !== undefined) spec.maxRetries = flags.maxRetries;
    return spec;
  });
}

function specFromFlags(envId: string, flags: EvalFlags): EvalSpec {
  const sampling: Record<string, unknown> = { ...flags.samplingArgs };
  if (flags.maxTokens !== undefined) sampling.max_tokens = flags.maxTokens;
  if (flags.temperature !== undefined) sampling.temperature = flags.temperature;
  const optional = {
    model: flags.model,
    baseUrl: flags.apiBaseUrl,
    apiKeyVar: flags.apiKeyVar,
    endpointsPath: flags.endpointsPath,
    numExamples: flags.numExamples,
    rolloutsPerExample: flags.rolloutsPerExample,
    maxConcurrent: flags.maxConcurrent,
    timeoutSeconds: flags.timeout,
    maxRetries: flags.maxRetries,
    shuffle: flags.shuffle,
    shuffleSeed: flags.shuffleSeed,
    independentScoring: flags.independentScoring,
    stateColumns: flags.stateColumns,
  };
  return EvalSpec.parse({
    envId,
    envArgs: flags.envArgs ?? {},
    extraEnvKwargs: flags.extraEnvKwargs ?? {},
    headers: flags.header ?? {},
    sampling,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  });
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
