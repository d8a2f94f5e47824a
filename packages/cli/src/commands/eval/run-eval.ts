/**
 * Runs one evaluation for `vf eval`: loads the environment, fills the gaps in the spec from its
 * package defaults (then 5 examples × 3 rollouts), connects to the model, evaluates with a
 * progress display, and prints verifiers' summary or, with --json, metadata.json's fields. A run
 * that stopped early or in which every rollout failed then fails the command (run-outcome.ts).
 */
import { type EvaluateResult, evaluate } from "@vf-rl/core";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import type { Output } from "../../terminal/output.ts";
import { connectModel } from "./connect-model.ts";
import type { EvalSpec, RunSettings } from "./eval-spec.ts";
import { formatSummary } from "./format-summary.ts";
import { ProgressDisplay } from "./progress-display.ts";
import { runFailure } from "./run-outcome.ts";

const DEFAULT_EXAMPLES = 5;
const DEFAULT_ROLLOUTS = 3;

export async function runEval(
  spec: EvalSpec,
  settings: RunSettings,
  io: Output,
  signal: AbortSignal,
): Promise<EvaluateResult> {
  const warn = (warning: string) => io.err(`${io.colour.err.yellow("warning:")} ${warning}`);
  const loaded = await loadEnvironmentById(spec.envId, { args: spec.envArgs });
  const { env, packageJson } = loaded;
  try {
    env.configure(spec.extraEnvKwargs);
    const numExamples = spec.numExamples ?? packageJson.vf.numExamples ?? DEFAULT_EXAMPLES;
    const rolloutsPerExample =
      spec.rolloutsPerExample ?? packageJson.vf.rolloutsPerExample ?? DEFAULT_ROLLOUTS;
    const sampling = { ...packageJson.vf.sampling, ...spec.sampling };
    const connected = await connectModel(spec);
    try {
      let progress: ProgressDisplay | undefined;
      const result = await evaluate(env, {
        clients: connected.clients,
        model: connected.model,
        baseUrl: connected.baseUrl,
        sampling,
        numExamples,
        rolloutsPerExample,
        maxConcurrent: spec.maxConcurrent,
        maxRetries: spec.maxRetries,
        shuffle: spec.shuffle,
        shuffleSeed: spec.shuffleSeed,
        independentScoring: spec.independentScoring,
        stateColumns: spec.stateColumns,
        signal,
        ...(spec.timeoutSeconds !== undefined ? { timeoutMs: spec.timeoutSeconds * 1000 } : {}),
        ...(settings.save || settings.resume
          ? { save: { outputDir: settings.outputDir, resume: settings.resume } }
          : {}),
        onStart: ({ total, alreadyDone, runDir, warnings }) => {
          for (const warning of warnings) warn(warning);
          if (!settings.json) {
            const target = `${loaded.id} with ${connected.model} (${connected.baseUrl})`;
            const resumed = alreadyDone > 0 ? `, ${alreadyDone} kept from ${runDir}` : "";
            io.err(`evaluating ${target}: ${total} rollouts${resumed}`);
          }
          progress = new ProgressDisplay(io, total, loaded.id);
          progress.resumeFrom(alreadyDone);
        },
        onProgress: ({ latest }) => progress?.add(latest),
        onWarning: warn,
      });
      progress?.finish();
      if (settings.json) {
        io.out(JSON.stringify({ ...result.metadata, ...(result.runDir ? { run_dir: result.runDir } : {}) }));
      } else {
        const options = {
          verbose: settings.verbose,
          abbreviated: settings.abbreviated,
          colour: io.colour.out,
        };
        for (const line of formatSummary(result, options)) io.out(line);
        if (result.cancelled) {
          io.err(
            `interrupted: ${result.records.length} finished rollouts kept${result.runDir ? ` in ${result.runDir}; rerun the same command with -R to continue` : ""}`,
          );
        }
      }
      const failure = runFailure(result);
      if (failure) throw failure;
      return result;
    } finally {
      await connected.close();
    }
  } finally {
    await env.teardown();
  }
}
