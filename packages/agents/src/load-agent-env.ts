/**
 * A package run as agents, by id: a taskset package (`"kind": "taskset"`) with the harness named
 * (default bash), or an environment made a taskset (`environmentTaskset`) with the harness named
 * (`chat`: the environment's own turn loop), in the runtime named (default the local sandbox), as
 * one `AgentEnv`. What `vf eval <taskset> --harness` and `vf env serve <taskset> --harness` run.
 *
 * @example
 * const { env } = await loadAgentEnv({ envId: "coding-tasks", harness: "bash", runtime: "subprocess" });
 * const result = await evaluate(env, { clients: client, model: "gpt-4.1-mini", numExamples: 5 });
 * await env.teardown();
 */
import type { Environment } from "@vf-rl/core";
import {
  AgentEnv,
  environmentTaskset,
  type Harness,
  type RuntimeFactory,
  type Taskset,
} from "@vf-rl/core/agents";
import { UserError } from "@vf-rl/core/errors";
import { type EnvPackageJson, findEnvironment, loadEnvironmentById, loadTaskset } from "@vf-rl/core/loading";
import type { AgentLimits, RuntimeType } from "./config/agent-env-tables.ts";
import { containerRuntime } from "./container/container-runtime.ts";
import { harnessCacheDir, harnessReadOnlyPaths } from "./harnesses/cache-dir.ts";
import { harnessById } from "./harnesses/index.ts";
import { localRuntime } from "./local/local-runtime.ts";
import { subprocessRuntime } from "./subprocess/subprocess-runtime.ts";

/** What to load. */
export interface LoadAgentEnvOptions {
  /** A taskset or environment id (`coding-tasks`, `owner/name@1.0.0`) or package folder. */
  envId: string;
  /** Where to look for local packages besides the defaults (vf eval's `--env-dir-path`). */
  envDir?: string;
  /** Arguments of the package's loadTaskset or loadEnvironment (`-a`). */
  envArgs?: Record<string, unknown>;
  /** An environment's settings (`-x`); a taskset takes none. */
  extraEnvKwargs?: Record<string, unknown>;
  /** A harness id of `HARNESSES`; a taskset's default is bash, an environment needs one (`chat`: its own loop). */
  harness?: string;
  /** The harness's options (a config's `[env.agent.harness]` keys besides `id`); default none. */
  harnessOptions?: Record<string, unknown>;
  /** Default local. */
  runtime?: RuntimeType;
  /** Limits over each task's own (a config's `[env.agent]` max_turns, timeout, max_output_tokens). */
  limits?: AgentLimits;
}

/** The loaded agents: the environment and the package it came from. */
export interface LoadedAgentEnv {
  env: AgentEnv;
  /** The package's `vf.id` (with its owner for a Hub package). */
  id: string;
  dir: string;
  packageJson: EnvPackageJson;
}

/** Loads `options.envId` as agents; see the file comment. */
export async function loadAgentEnv(options: LoadAgentEnvOptions): Promise<LoadedAgentEnv> {
  const envDir = options.envDir ? { envDir: options.envDir } : {};
  const found = findEnvironment(options.envId, envDir);
  const settings = options.extraEnvKwargs ?? {};
  let taskset: Taskset;
  let harness: Harness;
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  let inner: Environment<any> | undefined;
  let id: string;
  if (found.packageJson.vf.kind === "taskset") {
    if (Object.keys(settings).length > 0) {
      throw new UserError(
        `${options.envId} is a taskset, which takes no environment settings (-x): pass its arguments with -a`,
      );
    }
    const loaded = await loadTaskset(found, options.envArgs ?? {});
    taskset = loaded.taskset;
    id = loaded.id;
    harness = harnessById(options.harness ?? "bash", options.harnessOptions);
  } else {
    if (options.harness === undefined) {
      throw new UserError(
        `${options.envId} is an environment, which runs as agents only with a harness: name one (chat runs its own turn loop; bash, claude-code, ...)`,
      );
    }
    const loaded = await loadEnvironmentById(options.envId, { args: options.envArgs ?? {}, ...envDir });
    try {
      loaded.env.configure(settings);
    } catch (error) {
      await loaded.env.teardown();
      throw error;
    }
    inner = loaded.env;
    id = loaded.id;
    const own = environmentTaskset(loaded.env, { id });
    taskset = own;
    // harnessById checks the options even of chat, which here is the environment's own turn loop.
    const named = harnessById(options.harness, options.harnessOptions);
    harness = options.harness === "chat" ? own.harness : named;
  }
  // An agent CLI is installed once into the cache, and a local sandbox shows it read-only.
  const cacheDir = harnessCacheDir();
  const runtimes = runtimeFactory(options.runtime ?? "local", harnessReadOnlyPaths(harness, cacheDir));
  const limits = options.limits && Object.keys(options.limits).length > 0 ? { limits: options.limits } : {};
  const env = new AgentEnv({ taskset, harness, runtimes, cacheDir, ...limits });
  if (inner) env.addTeardown("environment", () => inner.teardown());
  return { env, id, dir: found.dir, packageJson: found.packageJson };
}

/** The runtime factory of `type`; `readOnlyPaths` are shown to a local sandbox. */
function runtimeFactory(type: RuntimeType, readOnlyPaths: string[]): RuntimeFactory {
  switch (type) {
    case "local":
      return localRuntime({ readOnlyPaths });
    case "container":
      return containerRuntime();
    case "subprocess":
      return subprocessRuntime();
  }
}
