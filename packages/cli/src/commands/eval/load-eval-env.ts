/**
 * What one evaluation runs, as an environment: the environment package `vf eval <id>` names, run as
 * it always was; or agents, when the package is a taskset (`"kind": "taskset"`) or `--harness` is
 * given: the taskset (an environment made one with `environmentTaskset`), the harness `--harness`
 * names (a taskset's default bash; `chat` on an environment is its own turn loop) and the runtime
 * `--runtime` names (default local), as one `AgentEnv` (@vf-rl/agents' `loadAgentEnv`, which
 * `vf env serve` shares), which `evaluate` runs like any environment. @vf-rl/agents is loaded only
 * for agents.
 */
import type { Environment } from "@vf-rl/core";
import { type EnvPackageJson, findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import { UsageError } from "../../cli-errors.ts";
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
