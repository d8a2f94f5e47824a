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
import { applySettings, type EvalSetting, emptyDraft, type SpecDraft, shortFlag } from "./eval-settings.ts";
import {
  checkPhaseBounds,
  checkSamplingFlag,
  checkSpecPaths,
  EvalSpec,
  type RunSettings,
} from "./eval-spec.ts";
import { exportSft, prepareSftExport } from "./export-sft.ts";
import { checkGates, EXIT_BELOW_GATE, type GatedRun, writeGateReports } from "./gates.ts";
import { hfHubUploader } from "./hf-hub-upload.ts";
import { reportUploader } from "./report-upload.ts";
import { installMissing } from "./run-eval.ts";
import { type EvaluationOutcome, runEvaluations } from "./run-evaluations.ts";

/**
 * The flags of `vf eval` that are the command's own (where runs go, how they show, what follows
 * them), as commander parses them. An evaluation's settings are eval-settings.ts's table; they reach
 * `runEvalCommand` as the map of those given on the command line.
 */
export interface EvalFlags {
  /** -c, read again here: the bound on rollouts in flight across all evaluations. */
  maxConcurrent?: number;
  saveResults?: boolean;
  resume?: boolean | string;
  outputDir: string;
  verbose?: boolean;
  abbreviatedSummary?: boolean;
  disableTui?: boolean;
  fullscreen?: boolean;
  exportSft?: string;
  minReward?: number;
  bestOfGroup?: boolean;
  json?: boolean;
  envServer?: true | string;
  numWorkers?: number;
  heartbeatUrl?: string;
  /** Where to write the JUnit XML of the gates and examples (--junit). */
  junit?: string;
  /** Where to write the Markdown summary (--summary-md); also appended to $GITHUB_STEP_SUMMARY when set. */
  summaryMd?: string;
  /** Upload each finished run to the Hub as a report (--push). */
  push?: boolean;
  /** The Hub of --push (--hub). */
  hub?: string;
}

export async function runEvalCommand(
  env: string,
  flags: EvalFlags,
  given: ReadonlyMap<EvalSetting, unknown>,
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
  const specs = env.endsWith(".toml") ? await configSpecs(env, given) : [specFromFlags(env, given)];
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
    checkCacheSettings(spec, settings);
  }
  if (typeof settings.resume === "string") {
    await checkInputPath(settings.resume, {
      label: "-R",
      accept: "folder",
      fix: "pass the run folder vf eval -s printed, or -R alone for the latest matching run",
    });
  }
  if (flags.exportSft) await prepareSftExport(flags.exportSft);
  await installMissing(specs, flags, io);
  const upload = await reportUploader(flags, io, specs);
  const uploadToHfHub = await hfHubUploader(specs, io);
  // Off a terminal (a pipe, CI) there is no screen to take: -f changes nothing, as in verifiers.
  const screen = flags.fullscreen && io.isTTY ? openFullscreen(io, `vf eval ${env} · Ctrl-C stops`) : null;
  const shown = screen?.io ?? io;
  const interrupt = onInterrupt(shown);
  try {
    let outcomes: EvaluationOutcome[];
    try {
      outcomes = await runEvaluations(specs, {
        settings,
        io: shown,
        signal: interrupt.signal,
        maxConcurrent: flags.maxConcurrent ?? Math.max(...specs.map((spec) => spec.maxConcurrent)),
      });
      await screen?.waitForExit(interrupt.signal);
    } catch (error) {
      // One evaluation that could not run: CI's reports say so too, then the command's error line.
      await reportGates([{ spec: specs[0]!, failed: true, error }], flags, io);
      throw error;
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
    const gated = await reportGates(outcomes, flags, io);
    if (outcomes.some((outcome) => outcome.failed)) setExit(EXIT_FAILURE);
    else if (gated.some((run) => run.gates.some((gate) => gate.value === null))) setExit(EXIT_FAILURE);
    else if (gated.some((run) => run.gates.some((gate) => !gate.passed))) setExit(EXIT_BELOW_GATE);
  } finally {
    interrupt.dispose();
  }
}

/** --cache-mode needs --cache; the cache is this process's, so not with an env server's workers. */
function checkCacheSettings(spec: EvalSpec, settings: RunSettings): void {
  if (spec.cacheMode !== undefined && spec.cache === undefined) {
    throw new UsageError(
      `--cache-mode ${spec.cacheMode} (cache_mode) needs the folder of recorded calls: add --cache DIR (cache in a config)`,
    );
  }
  if (spec.cache !== undefined && settings.envServer) {
    throw new UsageError(
      "--cache answers this process's model calls, not those of --env-server's workers: drop one of them",
    );
  }
}

/**
 * Measures each finished evaluation's gates, prints a line per gate, and writes --junit and
 * --summary-md (and GitHub's step summary) when there is anything to report.
 */
async function reportGates(outcomes: readonly EvaluationOutcome[], flags: EvalFlags, io: Output) {
  const runs: GatedRun[] = outcomes.map(({ spec, result, failed, error }) => {
    const name = spec.label ? `${spec.envId} [${spec.label}]` : spec.envId;
    const reason = error instanceof Error ? error.message : error === undefined ? undefined : String(error);
    return {
      name,
      metadata: result && !failed ? result.metadata : (result?.metadata ?? null),
      records: result?.records ?? [],
      gates:
        result && !failed && !result.cancelled
          ? checkGates(spec.failUnder, result.metadata)
          : // Listed unmeasured, so a CI report shows every gate it was asked for.
            spec.failUnder.map((gate) => ({
              gate,
              value: null,
              passed: false,
              line: "not measured: the run failed",
            })),
      ...(failed ? { error: reason ?? "the evaluation failed" } : {}),
    };
  });
  for (const run of runs) {
    if (run.error !== undefined) continue; // its error line says why
    for (const gate of run.gates) {
      const mark = gate.passed ? io.colour.err.green("pass") : io.colour.err.red("FAIL");
      io.err(`gate ${mark}: ${outcomes.length > 1 ? `${run.name}: ` : ""}${gate.line}`);
    }
  }
  const stepSummary = process.env.GITHUB_STEP_SUMMARY || undefined;
  if (flags.junit || flags.summaryMd || stepSummary) {
    await writeGateReports(runs, { junit: flags.junit, summaryMd: flags.summaryMd, stepSummary });
  }
  return runs;
}

/**
 * A config's evaluations, each with the settings given on the command line over its own: the same
 * overrides of config keys vf train takes (`-n 5` is `--num_examples 5` for every [[eval]] block).
 */
async function configSpecs(path: string, given: ReadonlyMap<EvalSetting, unknown>): Promise<EvalSpec[]> {
  const overrides = [...given].map(([setting, value]) => ({
    path: [setting.config![0]!],
    value: checkedFlagValue(setting, value),
    flag: shortFlag(setting),
  }));
  const blocks = await loadEvalConfig(path, overrides);
  return blocks.map((block) => EvalSpec.parse(block));
}

/** The one evaluation the command line describes. */
function specFromFlags(envId: string, given: ReadonlyMap<EvalSetting, unknown>): EvalSpec {
  const spec: SpecDraft = { ...emptyDraft(), envId };
  applySettings(
    spec,
    new Map([...given].map(([setting, value]) => [setting, checkedFlagValue(setting, value)])),
  );
  return EvalSpec.parse(spec);
}

/**
 * A flag's value with the checks made here rather than when flags are parsed, as they load the
 * clients: `--api-client-type`'s name, and the types of -S's keys that every server agrees on.
 */
function checkedFlagValue(setting: EvalSetting, value: unknown): unknown {
  if (setting.kind === "client-type") {
    const parsed = parseClientType(value as string);
    if (!parsed.ok) throw new UsageError(`--api-client-type: ${parsed.problem}`);
    return parsed.type;
  }
  if (setting.kind === "sampling") checkSamplingFlag(value as Record<string, unknown>);
  return value;
}
