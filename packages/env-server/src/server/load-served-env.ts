/**
 * What a worker serves: the environment package `envId` names, loaded as `vf eval` loads it; or
 * agents, when the package is a taskset (`"kind": "taskset"`) or a harness is named: @vf-rl/agents'
 * `loadAgentEnv` (the taskset, the harness, the runtime, as one `AgentEnv`), so each `run` is one
 * agent rollout and its episode the harness's trace. Every task of both splits is listed up front,
 * since a run names its task by id (`task_data.task`) and may reach a worker that never listed them.
 */
import type { RuntimeType } from "@vf-rl/agents";
import type { Environment } from "@vf-rl/core";
import { UserError } from "@vf-rl/core/errors";
import { findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import { z } from "zod";

/**
 * Where agents run (@vf-rl/agents' `RuntimeType`, spelt out so that a worker serving an environment
 * never loads @vf-rl/agents): the local sandbox, a container, plain subprocesses.
 */
export const ServedRuntime = z.enum([
  "local",
  "container",
  "subprocess",
] as const satisfies readonly RuntimeType[]);
export type ServedRuntime = z.infer<typeof ServedRuntime>;

/** What to load. */
export interface ServedEnvSpec {
  envId: string;
  envArgs: Record<string, unknown>;
  extraEnvKwargs: Record<string, unknown>;
  /** Serve as agents with this harness (a taskset's default: bash). */
  harness?: string | undefined;
  /** Where agents run; default local. Only for agents. */
  runtime?: ServedRuntime | undefined;
}

/** The loaded environment, the id episodes name it by, and its package's sampling defaults. */
export interface ServedEnv {
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  id: string;
  samplingDefaults?: Record<string, unknown>;
}

/** Loads what a worker serves; see the file comment. */
export async function loadServedEnv(spec: ServedEnvSpec): Promise<ServedEnv> {
  const found = findEnvironment(spec.envId);
  const sampling = found.packageJson.vf.sampling;
  const defaults = sampling ? { samplingDefaults: sampling } : {};
  if (found.packageJson.vf.kind !== "taskset" && spec.harness === undefined) {
    if (spec.runtime !== undefined) {
      throw new UserError(
        `--runtime ${spec.runtime} is where agents run, and ${spec.envId} is an environment run by vf itself: add --harness chat (or bash) to serve it as agents, or drop --runtime`,
      );
    }
    const loaded = await loadEnvironmentById(spec.envId, { args: spec.envArgs });
    loaded.env.configure(spec.extraEnvKwargs);
    return { env: loaded.env, id: loaded.id, ...defaults };
  }
  const { loadAgentEnv } = await import("@vf-rl/agents");
  const { env, id } = await loadAgentEnv({
    envId: spec.envId,
    envArgs: spec.envArgs,
    extraEnvKwargs: spec.extraEnvKwargs,
    ...(spec.harness !== undefined ? { harness: spec.harness } : {}),
    ...(spec.runtime !== undefined ? { runtime: spec.runtime } : {}),
  });
  try {
    await env.dataset("train");
    await env.dataset("eval");
  } catch (error) {
    await env.teardown();
    throw error;
  }
  return { env, id, ...defaults };
}
