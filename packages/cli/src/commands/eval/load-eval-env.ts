/**
 * What one evaluation runs, as an environment: the environment package `vf eval <id>` names, run as
 * it always was; or agents, when the package is a taskset (`"kind": "taskset"`) or `--harness` is
 * given: the taskset (an environment made one with `environmentTaskset`), the harness `--harness`
 * names (a taskset's default bash; `chat` on an environment is its own turn loop) and the runtime
 * `--runtime` names (default local), as one `AgentEnv`, which `evaluate` runs like any environment.
 * @vf-rl/agents is loaded only for agents.
 */
import type { Environment } from "@vf-rl/core";
import {
  AgentEnv,
  environmentTaskset,
  type Harness,
  type RuntimeFactory,
  type Taskset,
} from "@vf-rl/core/agents";
import { type EnvPackageJson, findEnvironment, loadEnvironmentById, loadTaskset } from "@vf-rl/core/loading";
import { UsageError } from "../../cli-errors.ts";
import type { RuntimeType } from "./eval-settings.ts";
import type { EvalSpec } from "./eval-spec.ts";

/** The loaded evaluation: the environment `evaluate` runs, and the package it came from. */
export interface EvalEnvironment {
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
export async function loadEvalEnv(spec: EvalSpec, options: { envServer: boolean }): Promise<EvalEnvironment> {
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
  const agents = await import("@vf-rl/agents");
  let taskset: Taskset;
  let harness: Harness;
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  let inner: Environment<any> | undefined;
  let id: string;
  if (isTaskset) {
    if (Object.keys(spec.extraEnvKwargs).length > 0) {
      throw new UsageError(
        `${spec.envId} is a taskset, which takes no -x settings: pass its arguments with -a`,
      );
    }
    const loaded = await loadTaskset(found, spec.envArgs);
    taskset = loaded.taskset;
    id = loaded.id;
    harness = agents.harnessById(spec.harness ?? "bash");
  } else {
    const loaded = await loadEnvironmentById(spec.envId, { args: spec.envArgs, ...envDir });
    await configure(loaded.env, spec.extraEnvKwargs);
    inner = loaded.env;
    id = loaded.id;
    const own = environmentTaskset(loaded.env, { id });
    taskset = own;
    harness = spec.harness === "chat" ? own.harness : agents.harnessById(spec.harness!);
  }
  // An agent CLI is installed once into the cache, and a local sandbox shows it read-only.
  const cacheDir = agents.harnessCacheDir();
  const readOnlyPaths = agents.harnessReadOnlyPaths(harness, cacheDir);
  const runtimes = runtimeFactory(spec.runtime ?? "local", agents, readOnlyPaths);
  const env = new AgentEnv({ taskset, harness, runtimes, cacheDir });
  if (inner) env.addTeardown("environment", () => inner.teardown());
  return { env, id, dir: found.dir, packageJson: found.packageJson, agents: true };
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

/** The runtime factory `--runtime` names. */
function runtimeFactory(
  type: RuntimeType,
  agents: typeof import("@vf-rl/agents"),
  readOnlyPaths: string[],
): RuntimeFactory {
  switch (type) {
    case "local":
      return agents.localRuntime({ readOnlyPaths });
    case "container":
      return agents.containerRuntime();
    case "subprocess":
      return agents.subprocessRuntime();
  }
}
