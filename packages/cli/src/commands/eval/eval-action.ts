/**
 * What `vf eval` does: resolve the flags (or a config's [[eval]] blocks and sweeps) to evaluations,
 * run them (run-evaluations.ts), end several with one comparison table, write --export-sft, and
 * upload each with --push. Loaded only when the command runs, so `vf --help` stays fast.
 */
import { parseClientType } from "@vf-rl/core/client";
import { EXIT_FAILURE, EXIT_INTERRUPTED, UsageError } from "../../cli-errors.ts";
import { checkInputPath } from "../../path-checks.ts";
import { openFullscreen } from "../../terminal/fullscreen.ts";
import { onInterrupt } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";
import { formatComparison } from "./comparison-table.ts";
import { loadEvalConfig } from "./eval-config.ts";
import type { EvalPushFlags } from "./eval-push.ts";
import { checkPhaseBounds, EvalSpec, type RunSettings } from "./eval-spec.ts";
import { exportSft, prepareSftExport } from "./export-sft.ts";
import { hfHubUploader } from "./hf-hub-upload.ts";
import type { ProviderName } from "./providers.ts";
import { reportUploader } from "./report-upload.ts";
import { runEvaluations } from "./run-evaluations.ts";
import { checkSpecPaths } from "./spec-checks.ts";

/** The flags of `vf eval`, as commander parses them. */
export interface EvalFlags extends EvalPushFlags {
  model?: string;
  provider?: ProviderName;
  apiBaseUrl?: string;
  apiKeyVar?: string;
  apiClientType?: string;
  envDirPath?: string;
  endpointsPath?: string;
  numExamples?: number;
  rolloutsPerExample?: number;
  maxConcurrent?: number;
  maxConcurrentGeneration?: number;
  maxConcurrentScoring?: number;
  maxTokens?: number;
  temperature?: number;
  samplingArgs?: Record<string, unknown>;
  envArgs?: Record<string, unknown>;
  extraEnvKwargs?: Record<string, unknown>;
  saveResults?: boolean;
  saveToHfHub?: boolean;
  hfHubDatasetName?: string;
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
  disableTui?: boolean;
  fullscreen?: boolean;
  /** False with -N/--no-interleave-scoring. */
  interleaveScoring: boolean;
  exportSft?: string;
  minReward?: number;
  bestOfGroup?: boolean;
  header?: Record<string, string>;
  headerFromState?: Record<string, string>;
  json?: boolean;
  envServer?: true | string;
  numWorkers?: number;
  heartbeatUrl?: string;
}

/** Flags that describe one evaluation; with a config file they belong in the file. */
const SPEC_FLAGS: Array<keyof EvalFlags> = [
  "model",
  "provider",
  "apiBaseUrl",
  "apiKeyVar",
  "apiClientType",
  "envDirPath",
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
  "headerFromState",
  "hfHubDatasetName",
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
    disableTui: Boolean(flags.disableTui),
    verbose: Boolean(flags.verbose),
    abbreviated: Boolean(flags.abbreviatedSummary),
    ...(flags.envServer ? { envServer: flags.envServer } : {}),
    ...(flags.numWorkers !== undefined ? { numWorkers: flags.numWorkers } : {}),
    ...(flags.heartbeatUrl ? { heartbeatUrl: flags.heartbeatUrl } : {}),
  };
  if (flags.fullscreen && flags.disableTui) {
    throw new UsageError("-f/--fullscreen shows the live display, -d/--disable-tui turns it off: keep one");
  }
  if (!flags.exportSft && (flags.minReward !== undefined || flags.bestOfGroup)) {
    throw new UsageError(
      "--min-reward and --best-of-group filter what --export-sft writes: add --export-sft FILE",
    );
  }
  const specs = env.endsWith(".toml") ? await configSpecs(env, flags) : [specFromFlags(env, flags)];
  for (const spec of specs) {
    checkPhaseBounds(spec, settings);
    await checkSpecPaths(spec);
    if (spec.hfHubDatasetName !== undefined && !spec.saveToHfHub) {
      throw new UsageError(
        "-D/--hf-hub-dataset-name (hf_hub_dataset_name) names the dataset -H/--save-to-hf-hub (save_to_hf_hub) uploads to: add -H",
      );
    }
    // The upload is of the saved run.
    if (spec.saveToHfHub) settings.save = true;
  }
  if (typeof settings.resume === "string") {
    await checkInputPath(settings.resume, {
      label: "-R",
      accept: "folder",
      fix: "pass the run folder vf eval -s printed, or -R alone for the latest matching run",
    });
  }
  if (flags.exportSft) await prepareSftExport(flags.exportSft);
  const upload = await reportUploader(flags, io, specs);
  const uploadToHfHub = await hfHubUploader(specs, io);
  // Off a terminal (a pipe, CI) there is no screen to take: -f changes nothing, as in verifiers.
  const screen = flags.fullscreen && io.isTTY ? openFullscreen(io, `vf eval ${env} · Ctrl-C stops`) : null;
  const shown = screen?.io ?? io;
  const interrupt = onInterrupt(shown);
  try {
    let outcomes: Awaited<ReturnType<typeof runEvaluations>>;
    try {
      outcomes = await runEvaluations(specs, {
        settings,
        io: shown,
        signal: interrupt.signal,
        maxConcurrent: flags.maxConcurrent ?? Math.max(...specs.map((spec) => spec.maxConcurrent)),
      });
      await screen?.waitForExit(interrupt.signal);
    } finally {
      // The user's screen back, with the summaries written meanwhile after it.
      screen?.close();
    }
    const finished = outcomes.flatMap(({ spec, result }) => (result ? [{ spec, result }] : []));
    if (specs.length > 1 && !settings.json && finished.length > 0) {
      const compared = finished.map(({ spec, result }) => ({
        envId: result.metadata.env_id,
        ...(spec.label ? { label: spec.label } : {}),
        metadata: result.metadata,
        records: result.records,
      }));
      io.out(["", ...formatComparison(compared)].join("\n"));
    }
    if (interrupt.signal.aborted || finished.some(({ result }) => result.cancelled)) {
      setExit(EXIT_INTERRUPTED);
      return;
    }
    if (flags.exportSft) {
      const filter = {
        ...(flags.minReward !== undefined ? { minReward: flags.minReward } : {}),
        bestOfGroup: Boolean(flags.bestOfGroup),
      };
      io.err(
        await exportSft(
          flags.exportSft,
          finished.map(({ result }) => result),
          filter,
        ),
      );
    }
    // A run that stopped early or failed every rollout is not a report, nor a dataset.
    for (const { spec, result, failed } of outcomes) {
      if (!result || failed) continue;
      await upload?.(spec, result);
      await uploadToHfHub?.(spec, result);
    }
    if (outcomes.some((outcome) => outcome.failed)) setExit(EXIT_FAILURE);
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
    if (flags.maxConcurrentGeneration) spec.maxConcurrentGeneration = flags.maxConcurrentGeneration;
    if (flags.maxConcurrentScoring) spec.maxConcurrentScoring = flags.maxConcurrentScoring;
    if (!flags.interleaveScoring) spec.interleaveScoring = false;
    if (flags.saveToHfHub) spec.saveToHfHub = true;
    return spec;
  });
}

function specFromFlags(envId: string, flags: EvalFlags): EvalSpec {
  const sampling: Record<string, unknown> = { ...flags.samplingArgs };
  if (flags.maxTokens !== undefined) sampling.max_tokens = flags.maxTokens;
  if (flags.temperature !== undefined) sampling.temperature = flags.temperature;
  const optional = {
    model: flags.model,
    provider: flags.provider,
    type: flags.apiClientType === undefined ? undefined : apiClientTypeFlag(flags.apiClientType),
    baseUrl: flags.apiBaseUrl,
    envDirPath: flags.envDirPath,
    apiKeyVar: flags.apiKeyVar,
    endpointsPath: flags.endpointsPath,
    numExamples: flags.numExamples,
    rolloutsPerExample: flags.rolloutsPerExample,
    maxConcurrent: flags.maxConcurrent,
    maxConcurrentGeneration: flags.maxConcurrentGeneration,
    maxConcurrentScoring: flags.maxConcurrentScoring,
    timeoutSeconds: flags.timeout,
    maxRetries: flags.maxRetries,
    shuffle: flags.shuffle,
    shuffleSeed: flags.shuffleSeed,
    independentScoring: flags.independentScoring,
    interleaveScoring: flags.interleaveScoring,
    stateColumns: flags.stateColumns,
    saveToHfHub: flags.saveToHfHub,
    hfHubDatasetName: flags.hfHubDatasetName,
  };
  return EvalSpec.parse({
    envId,
    envArgs: flags.envArgs ?? {},
    extraEnvKwargs: flags.extraEnvKwargs ?? {},
    headers: flags.header ?? {},
    headersFromState: flags.headerFromState ?? {},
    sampling,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  });
}

/** `--api-client-type`, checked here rather than when flags are parsed: the check loads the clients. */
function apiClientTypeFlag(value: string) {
  const parsed = parseClientType(value);
  if (!parsed.ok) throw new UsageError(`--api-client-type: ${parsed.problem}`);
  return parsed.type;
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
