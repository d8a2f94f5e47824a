/**
 * One evaluation, fully specified: what `vf eval` flags or one `[[eval]]` block of a TOML config
 * resolve to, before the environment's own defaults fill the gaps; and the checks of a spec made
 * before any evaluation starts (from flags or a config's blocks alike), so a typo is one line at
 * once rather than a run that quietly ignores it (--env-dir-path naming a file) or a model id sent
 * to OpenAI (-m naming a missing folder). What only connecting can tell (a server that does not
 * answer, a rejected key) is connect-model.ts's.
 */
import { ApiClientType, CheckedSamplingArgs } from "@vf-rl/core/client";
import { issueLines } from "@vf-rl/core/config";
import { PROVIDERS, type ProviderName } from "@vf-rl/core/providers";
import { z } from "zod";
import { UsageError } from "../../cli-errors.ts";
import { checkInputPath } from "../../path-checks.ts";
import { CACHE_MODES, RUNTIME_TYPES } from "./eval-settings.ts";

/** One gate: what is measured ("reward", "pass@K" or a metric's name) and the least it may be. */
export const Gate = z.object({ measure: z.string().min(1), threshold: z.number() }).strict();
export type Gate = z.infer<typeof Gate>;

export const EvalSpec = z
  .object({
    envId: z.string().min(1),
    /** The folder of local environments a bare id is looked up in first (default ./environments). */
    envDirPath: z.string().min(1).optional(),
    /** What sets this evaluation apart in a config's comparison table (`name`, or a sweep's values). */
    label: z.string().optional(),
    /** `name` of its config block: saved in metadata.json, and names the run's folder instead of the env id. */
    name: z.string().min(1).optional(),
    envArgs: z.record(z.string(), z.unknown()).default({}),
    /**
     * The agent program working on each task (--harness): a taskset's default is bash; with it, an
     * environment runs as a taskset (chat: its own turn loop). Absent for an environment: its own run.
     */
    harness: z.string().min(1).optional(),
    /** The harness's options (--harness-args; a config's `[eval.env.agent.harness]` keys besides id); default none. */
    harnessOptions: z.record(z.string(), z.unknown()).optional(),
    /** Where each agent runs (--runtime); default local. */
    runtime: z.enum(RUNTIME_TYPES).optional(),
    /** Limits over each task's own (a config's `[eval.env.agent]` max_turns, timeout, max_output_tokens; no flag). */
    agentLimits: z
      .object({
        maxTurns: z.number().int().positive().optional(),
        timeSeconds: z.number().positive().optional(),
        maxCompletionTokens: z.number().int().positive().optional(),
      })
      .optional(),
    /** Settings applied to the loaded environment (`-x`), e.g. max_turns. */
    extraEnvKwargs: z.record(z.string(), z.unknown()).default({}),
    /** A model id or an endpoint_id of the registry; absent: the built-in local model. */
    model: z.string().optional(),
    /** A -p shorthand: base URL, key variable and client type (each overridden by its own flag). */
    provider: z.enum(Object.keys(PROVIDERS) as [ProviderName, ...ProviderName[]]).optional(),
    baseUrl: z.string().optional(),
    apiKeyVar: z.string().optional(),
    /** The API to call the model through (--api-client-type). */
    type: ApiClientType.optional(),
    endpointsPath: z.string().optional(),
    headers: z.record(z.string(), z.string()).default({}),
    /** Headers of each request read from the rollout's state: header name to state key. */
    headersFromState: z.record(z.string(), z.string()).default({}),
    numExamples: z.number().int().optional(),
    rolloutsPerExample: z.number().int().positive().optional(),
    sampling: CheckedSamplingArgs.default({}),
    maxConcurrent: z.number().int().positive().default(32),
    /** Rollouts generated at once, within maxConcurrent (verifiers' max_concurrent_generation). */
    maxConcurrentGeneration: z.number().int().positive().optional(),
    /** Groups (rollouts with independentScoring) scored at once, within maxConcurrent. */
    maxConcurrentScoring: z.number().int().positive().optional(),
    timeoutSeconds: z.number().positive().optional(),
    maxRetries: z.number().int().min(0).default(3),
    shuffle: z.boolean().default(false),
    shuffleSeed: z.number().int().default(0),
    independentScoring: z.boolean().default(false),
    /** Score groups as they finish (default); false with -N: after every rollout is generated. */
    interleaveScoring: z.boolean().default(true),
    stateColumns: z.array(z.string()).default([]),
    /** The folder of recorded model calls (--cache); absent: every call reaches the model. */
    cache: z.string().min(1).optional(),
    /** How the cache is used (--cache-mode); default record. */
    cacheMode: z.enum(CACHE_MODES).optional(),
    /** Score gates (--fail-under): a finished run below one fails the command with exit 3. */
    failUnder: z.array(Gate).default([]),
    /** Upload the finished run to the Hugging Face Hub as a dataset (-H, verifiers' save_to_hf_hub). */
    saveToHfHub: z.boolean().default(false),
    /** Its dataset, `name` or `owner/name` (-D); default verifiers' `<env>_<model>_n<N>_r<R>`. */
    hfHubDatasetName: z.string().optional(),
  })
  .strict();
export type EvalSpec = z.infer<typeof EvalSpec>;

/** Settings of the whole command, shared by every evaluation it runs. */
export interface RunSettings {
  save: boolean;
  /** true: the latest matching incomplete run; a string: that run folder. */
  resume: boolean | string;
  outputDir: string;
  json: boolean;
  /** Plain progress lines, one per update, instead of the live display (-d). */
  disableTui: boolean;
  /** Every error message and every per-rollout value in the summary (-v). */
  verbose: boolean;
  /** A summary without the example prompt and completion (-A). */
  abbreviated: boolean;
  /** Run rollouts in an env server: true starts a pool here, a string is a running server's address. */
  envServer?: true | string;
  /** Worker processes of the pool `envServer: true` starts (-w). */
  numWorkers?: number;
  /** Pinged (GET) whenever rollouts finish, for an uptime monitor (--heartbeat-url). */
  heartbeatUrl?: string;
}

/**
 * Refuses --max-concurrent-generation or --max-concurrent-scoring above -c (each bounds its phase
 * within it), and with an env server, whose workers run both phases out of their reach.
 */
export function checkPhaseBounds(spec: EvalSpec, settings: Pick<RunSettings, "envServer">): void {
  const bounds = [
    ["--max-concurrent-generation", spec.maxConcurrentGeneration],
    ["--max-concurrent-scoring", spec.maxConcurrentScoring],
  ] as const;
  for (const [flag, bound] of bounds) {
    if (bound === undefined) continue;
    if (settings.envServer) {
      throw new UsageError(
        `${flag} bounds rollouts run in this process, not in --env-server's workers: drop one of them`,
      );
    }
    if (bound > spec.maxConcurrent) {
      throw new UsageError(
        `${flag} ${bound} is above -c ${spec.maxConcurrent}: it bounds its phase within -c; raise -c (max_concurrent in a config) or lower it`,
      );
    }
  }
}

/**
 * Refuses -S when a key every server reads has a value of the wrong type (`{"temperature": "hot"}`),
 * which the server would refuse on every request; other keys pass as given.
 */
export function checkSamplingFlag(sampling: Record<string, unknown>): void {
  const parsed = CheckedSamplingArgs.safeParse(sampling);
  if (parsed.success) return;
  const [problem] = issueLines(parsed.error);
  throw new UsageError(`-S: ${problem}: fix that key, or leave it out for the server's default`);
}

const ENV_DIR_FIX = "name the folder that holds your environment packages (default ./environments)";
const MODEL_FIX =
  "give the checkpoint folder vf train or vf sft printed, or a model id (with -b for a server that names models by path)";

/** Throws a `UsageError` for the first path of `spec` that cannot work. */
export async function checkSpecPaths(spec: EvalSpec): Promise<void> {
  if (spec.envDirPath !== undefined) {
    const options = { label: "--env-dir-path", accept: "folder", fix: ENV_DIR_FIX } as const;
    if ((await checkInputPath(spec.envDirPath, options)) === "missing") {
      throw new UsageError(`--env-dir-path ${spec.envDirPath} does not exist: ${ENV_DIR_FIX}`);
    }
  }
  if (spec.endpointsPath !== undefined) {
    await checkInputPath(spec.endpointsPath, {
      label: "-e/--endpoints-path",
      fix: "name the endpoint registry, a TOML file such as configs/endpoints.toml",
    });
  }
  // A model written as a path (/x, ./x, ../x, ~/x) is a checkpoint folder, unless a server is
  // named (-b, -p): vLLM names a model by the path it was loaded from.
  const served = spec.baseUrl !== undefined || spec.provider !== undefined;
  if (spec.model !== undefined && !served && /^(\/|\.{1,2}\/|~)/.test(spec.model)) {
    const options = { label: "-m", accept: "folder", fix: MODEL_FIX } as const;
    if ((await checkInputPath(spec.model, options)) === "missing") {
      throw new UsageError(`-m ${spec.model} does not exist: ${MODEL_FIX}`);
    }
  }
}
