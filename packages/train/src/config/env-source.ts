/**
 * What an [[env]] block names, whichever way it names it: an environment by `id` and `[env.args]`,
 * or, as prime-rl does, a taskset by `[env.taskset]` with a harness and a runtime
 * (`[env.agent.harness]`, `[env.agent.runtime]`, read by @vf-rl/agents/config). One place reads the
 * block, so the loop, the checks and the run folder's name agree on it.
 */
import { type AgentEnvSpec, agentEnvSpec } from "@vf-rl/agents/config";
import type { EnvConfig } from "./train-config.ts";

/** An [[env]] block, read. */
export interface EnvSource {
  /** The environment's or taskset's id (or package folder). */
  id: string;
  /** Its arguments. */
  args: Record<string, unknown>;
  /**
   * The harness and runtime the block names; absent when it names none (a taskset package then
   * runs with its defaults: the bash harness in the local sandbox).
   */
  agent?: Pick<AgentEnvSpec, "harness" | "harnessOptions" | "runtime" | "limits">;
}

/** The keys of an [[env]] or [[eval.env]] block that name its environment. */
export type EnvNamingKeys = Pick<EnvConfig, "id" | "args" | "taskset" | "agent" | "harness" | "runtime">;

/** The block `env` read; see the file comment. The schema has checked it names an id one way. */
export function envSource(env: EnvNamingKeys): EnvSource {
  const spec = agentEnvSpec({
    ...(env.taskset ? { taskset: env.taskset } : {}),
    ...(env.agent ? { agent: env.agent } : {}),
    ...(env.harness ? { harness: env.harness } : {}),
    ...(env.runtime ? { runtime: env.runtime } : {}),
  });
  const named = env.agent !== undefined || env.harness !== undefined || env.runtime !== undefined;
  const { harness, harnessOptions, runtime, limits } = spec;
  return {
    id: spec.id ?? env.id ?? "",
    args: env.taskset ? spec.args : env.args,
    ...(named
      ? {
          agent: {
            ...(harness !== undefined ? { harness } : {}),
            harnessOptions,
            ...(runtime !== undefined ? { runtime } : {}),
            limits,
          },
        }
      : {}),
  };
}
