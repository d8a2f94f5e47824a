/**
 * Runs one evaluation for `vf eval`: loads the environment (or a taskset and a harness, as one:
 * load-eval-env.ts), fills the gaps in the spec from its
 * package defaults (then 5 examples × 3 rollouts), connects to the model (through the command's
 * pool), evaluates with its entry on the progress board, and prints verifiers' summary or, with
 * --json, metadata.json's fields. Whether a run that stopped early or failed every rollout fails
 * the command is decided by the caller (run-evaluations.ts).
 */
import { type EvaluateResult, evaluate, type Slots } from "@vf-rl/core";
import { AgentEnv } from "@vf-rl/core/agents";
import type { Output } from "../../terminal/output.ts";
import { cacheLine, type ModelPool, replayFailure } from "./connect-model.ts";
import { openEnvServer } from "./env-server-runner.ts";
import type { EvalSpec, RunSettings } from "./eval-spec.ts";
import { formatSummary } from "./format-summary.ts";
import { loadEvalEnv } from "./load-eval-env.ts";
import type { EvalProgress, Heartbeat, ProgressBoard } from "./progress-board.ts";

const DEFAULT_EXAMPLES = 5;
const SESSION_HEADER = "X-Session-ID";
const DEFAULT_ROLLOUTS = 3;

/** What one evaluation shares with the others of its command. */
export interface EvalContext {
  settings: RunSettings;
  io: Output;
  signal: AbortSignal;
  board: ProgressBoard;
  /** This evaluation's entry on the board. */
  progress: EvalProgress;
  models: ModelPool;
  /** Rollout slots shared by evaluations that run at once. */
  sharedSlots?: Slots;
  /** One of several evaluations: its messages name it. */
  several: boolean;
  /** Pinged whenever rollouts finish (--heartbeat-url). */
  heartbeat?: Heartbeat | undefined;
}

export async function runEval(spec: EvalSpec, context: EvalContext): Promise<EvaluateResult> {
  const { settings, io, board, progress } = context;
  const loaded = await loadEvalEnv(spec, { envServer: settings.envServer !== undefined });
  const { env, packageJson } = loaded;
  progress.label = spec.label ? `${loaded.id} [${spec.label}]` : loaded.id;
  const tag = context.several ? `${progress.label}: ` : "";
  const warn = (warning: string) => io.err(`${io.colour.err.yellow("warning:")} ${tag}${warning}`);
  try {
    const numExamples = spec.numExamples ?? packageJson.vf.numExamples ?? DEFAULT_EXAMPLES;
    const rolloutsPerExample =
      spec.rolloutsPerExample ?? packageJson.vf.rolloutsPerExample ?? DEFAULT_ROLLOUTS;
    const sampling = { ...packageJson.vf.sampling, ...spec.sampling };
    const connected = await context.models.connect(spec);
    const served = settings.envServer
      ? await openEnvServer({
          where: settings.envServer,
          numWorkers: settings.numWorkers,
          // Workers load the package found here, wherever --env-dir-path pointed.
          spec: spec.envDirPath ? { ...spec, envId: loaded.dir } : spec,
          connected,
          sampling,
          log: (line) => io.err(line),
        })
      : undefined;
    const result = await evaluate(env, {
      envId: loaded.id,
      envArgs: spec.envArgs,
      clients: connected.clients,
      model: connected.model,
      baseUrl: connected.baseUrl,
      ...(spec.name !== undefined ? { name: spec.name } : {}),
      // An agent run's harness and runtime are part of what it is (its folder, -R's match).
      ...(env instanceof AgentEnv ? { agent: { harness: env.harness.id, runtime: env.runtimes.id } } : {}),
      sampling,
      numExamples,
      rolloutsPerExample,
      maxConcurrent: spec.maxConcurrent,
      ...(spec.maxConcurrentGeneration ? { maxConcurrentGeneration: spec.maxConcurrentGeneration } : {}),
      ...(spec.maxConcurrentScoring ? { maxConcurrentScoring: spec.maxConcurrentScoring } : {}),
      maxRetries: spec.maxRetries,
      shuffle: spec.shuffle,
      shuffleSeed: spec.shuffleSeed,
      independentScoring: spec.independentScoring,
      interleaveScoring: spec.interleaveScoring,
      stateColumns: spec.stateColumns,
      // verifiers' default: the trajectory id as X-Session-ID, so a router keeps a rollout on one server.
      headersFromState: withSessionHeader(spec.headersFromState),
      signal: context.signal,
      ...(served ? { runUnit: served.runUnit } : {}),
      ...(context.sharedSlots ? { sharedSlots: context.sharedSlots } : {}),
      ...(spec.timeoutSeconds !== undefined ? { timeoutSeconds: spec.timeoutSeconds } : {}),
      ...(settings.save || settings.resume
        ? { save: { outputDir: settings.outputDir, resume: settings.resume } }
        : {}),
      onStart: ({ total, alreadyDone, runDir, warnings }) => {
        for (const warning of warnings) warn(warning);
        if (!settings.json) {
          const where = served
            ? ` in the env server at ${served.address}${served.workers ? ` (${served.workers} worker${served.workers === 1 ? "" : "s"})` : ""}`
            : "";
          const target = `${progress.label} with ${connected.model} (${connected.baseUrl})${where}`;
          const resumed = alreadyDone > 0 ? `, ${alreadyDone} kept from ${runDir}` : "";
          io.err(`evaluating ${target}: ${total} rollouts${resumed}`);
        }
        progress.start(total, alreadyDone);
        board.update(progress);
      },
      onProgress: ({ latest }) => {
        progress.add(latest);
        board.update(progress);
        context.heartbeat?.beat();
      },
      onWarning: warn,
    }).finally(() => served?.close());
    progress.end(result.cancelled ? "interrupted" : "done");
    board.update(progress);
    if (settings.json) {
      io.out(JSON.stringify({ ...result.metadata, ...(result.runDir ? { run_dir: result.runDir } : {}) }));
    } else {
      const options = { verbose: settings.verbose, abbreviated: settings.abbreviated, colour: io.colour.out };
      const input = spec.label ? { ...result, label: spec.label } : result;
      // One write: on a terminal the progress block is cleared and redrawn once around it.
      io.out(formatSummary(input, options).join("\n"));
      if (result.cancelled) {
        io.err(
          `interrupted: ${tag}${result.records.length} finished rollouts kept${result.runDir ? ` in ${result.runDir}; rerun the same command with -R to continue` : ""}`,
        );
      }
    }
    if (connected.cache) {
      if (!settings.json) io.err(`${tag}${cacheLine(connected.cache)}`);
      // A stopped run already fails on its miss (run-evaluations.ts), saying how to resume it.
      const missed = result.stoppedBy || result.cancelled ? null : replayFailure(connected.cache);
      if (missed) throw missed;
    }
    return result;
  } finally {
    await env.teardown();
  }
}

/** The headers read from state, with X-Session-ID from the trajectory id unless the user maps it. */
function withSessionHeader(mapping: Record<string, string>): Record<string, string> {
  const mapped = Object.keys(mapping).some((name) => name.toLowerCase() === SESSION_HEADER.toLowerCase());
  return mapped ? mapping : { [SESSION_HEADER]: "trajectory_id", ...mapping };
}
