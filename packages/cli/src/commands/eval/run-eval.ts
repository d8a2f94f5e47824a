/**
 * Runs one evaluation for `vf eval`: loads the environment (or a taskset and a harness, as one:
 * `loadEvalEnv`, below), fills the gaps in the spec from its
 * package defaults (then 5 examples × 3 rollouts), connects to the model (through the command's
 * pool), evaluates with its entry on the progress board, and prints verifiers' summary or, with
 * --json, metadata.json's fields. Whether a run that stopped early or failed every rollout fails
 * the command is decided by the caller (run-evaluations.ts).
 *
 * What an evaluation runs, as an environment: the environment package `vf eval <id>` names, run as
 * it always was; or agents, when the package is a taskset (`"kind": "taskset"`) or `--harness` is
 * given: the taskset (an environment made one with `environmentTaskset`), the harness `--harness`
 * names (a taskset's default bash; `chat` on an environment is its own turn loop) and the runtime
 * `--runtime` names (default local), as one `AgentEnv` (@vf-rl/agents' `loadAgentEnv`, which
 * `vf env serve` shares), which `evaluate` runs like any environment. @vf-rl/agents is loaded only
 * for agents.
 *
 * Before any of them starts, a Hub id (`owner/name[@version]`) not installed here, or installed at
 * another version, is installed as `vf env install` would (`installMissing`, below): as prime's eval
 * installs a Hub slug, `vf eval ada/gsm8k@1.2.0` runs on a machine that has never seen it.
 */
import { type Environment, type EvaluateResult, evaluate, type Slots } from "@vf-rl/core";
import { AgentEnv } from "@vf-rl/core/agents";
import { EnvironmentNotFoundError } from "@vf-rl/core/errors";
import { type EnvPackageJson, findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import { UsageError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import { connectHub, type HubFlags, loadHubClient } from "../hub/hub-flags.ts";
import { cacheLine, type ModelPool, replayFailure } from "./connect-model.ts";
import { openEnvServer } from "./env-server-runner.ts";
import type { EvalSpec, RunSettings } from "./eval-spec.ts";
import { formatSummary } from "./format-summary.ts";
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

/** The loaded evaluation: the environment `evaluate` runs, and the package it came from. */
interface EvalEnvironment {
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  /** The package's `vf.id` (with its owner for a Hub package). */
  id: string;
  dir: string;
  packageJson: EnvPackageJson;
  /** Whether agents run it (a taskset, or --harness). */
  agents: boolean;
}

/** Loads what `spec` evaluates, configured with its `-x` settings; see the file comment. */
async function loadEvalEnv(spec: EvalSpec, options: { envServer: boolean }): Promise<EvalEnvironment> {
  const envDir = spec.envDirPath ? { envDir: spec.envDirPath } : {};
  const found = findEnvironment(spec.envId, envDir);
  const isTaskset = found.packageJson.vf.kind === "taskset";
  if (!isTaskset && spec.harness === undefined) {
    if (spec.runtime !== undefined) {
      throw new UsageError(
        `--runtime ${spec.runtime} is where agents run, and ${spec.envId} is an environment run by vf itself: add --harness chat (or bash) to run it as a taskset, or drop --runtime`,
      );
    }
    const loaded = await loadEnvironmentById(spec.envId, { args: spec.envArgs, ...envDir });
    await configure(loaded.env, spec.extraEnvKwargs);
    return { ...loaded, agents: false };
  }
  if (options.envServer) {
    throw new UsageError(
      `${spec.envId} runs agents (${isTaskset ? "a taskset" : "--harness"}), which run in this process, not in --env-server's workers: drop --env-server`,
    );
  }
  if (isTaskset && Object.keys(spec.extraEnvKwargs).length > 0) {
    throw new UsageError(
      `${spec.envId} is a taskset, which takes no -x settings: pass its arguments with -a`,
    );
  }
  const { loadAgentEnv } = await import("@vf-rl/agents");
  const loaded = await loadAgentEnv({
    envId: spec.envId,
    ...envDir,
    envArgs: spec.envArgs,
    extraEnvKwargs: spec.extraEnvKwargs,
    ...(spec.harness !== undefined ? { harness: spec.harness } : {}),
    ...(spec.harnessOptions !== undefined ? { harnessOptions: spec.harnessOptions } : {}),
    ...(spec.agentLimits !== undefined ? { limits: spec.agentLimits } : {}),
    ...(spec.runtime !== undefined ? { runtime: spec.runtime } : {}),
  });
  return { ...loaded, agents: true };
}

/** Applies `-x` settings; an environment that refuses them is torn down before the error goes on. */
// biome-ignore lint/suspicious/noExplicitAny: environments of any state type
async function configure(env: Environment<any>, settings: Record<string, unknown>): Promise<void> {
  try {
    env.configure(settings);
  } catch (error) {
    await env.teardown();
    throw error;
  }
}

/** The headers read from state, with X-Session-ID from the trajectory id unless the user maps it. */
function withSessionHeader(mapping: Record<string, string>): Record<string, string> {
  const mapped = Object.keys(mapping).some((name) => name.toLowerCase() === SESSION_HEADER.toLowerCase());
  return mapped ? mapping : { [SESSION_HEADER]: "trajectory_id", ...mapping };
}

/**
 * Installs from the Hub (`hub`: --hub, else VF_HUB_URL, else the one logged in to) each Hub id of
 * `specs` that findEnvironment reports not installed here, one after another (two evaluations of one
 * environment install it once), saying so on stderr. Any other lookup failure is left to the
 * evaluation, which reports it.
 */
export async function installMissing(specs: readonly EvalSpec[], hub: HubFlags, io: Output): Promise<void> {
  const missing = new Set<string>();
  for (const spec of specs) {
    try {
      findEnvironment(spec.envId, spec.envDirPath ? { envDir: spec.envDirPath } : {});
    } catch (error) {
      if (error instanceof EnvironmentNotFoundError && error.notInstalled) missing.add(spec.envId);
    }
  }
  if (missing.size === 0) return;
  const { installEnvironment } = await loadHubClient();
  const client = await connectHub(hub);
  for (const id of missing) {
    io.err(`${id} is not installed here: installing it from the Hub at ${client.url}`);
    const installed = await installEnvironment({ client, spec: id, cwd: process.cwd() });
    for (const warning of installed.warnings) io.err(`warning: ${warning}`);
    const where =
      installed.where === "project" ? "this project" : `vf's managed folder (${installed.savedIn})`;
    const replaced = installed.replaced && installed.replaced !== installed.version.semver;
    io.err(
      `installed ${installed.id}@${installed.version.semver} into ${where}${replaced ? `, replacing ${installed.replaced}` : ""}`,
    );
  }
}
