/**
 * Every setting of one evaluation, declared once: its flag, its help, the kind of value it takes
 * (which gives both the flag's parser and the config key's schema), its key in a TOML config
 * (verifiers' snake_case names, aliases after the first) and where its value goes in the
 * `EvalSpec`. `vf eval`'s options, the config schema (eval-config.ts), the spec built from flags and
 * the overrides of a config by flags (eval-action.ts) are all read off this table, so a new setting
 * is one entry here and a field of `EvalSpec`.
 *
 * It loads no more than the command's declaration may (flag parsers, the provider list): the zod
 * schemas of the kinds are built in eval-config.ts, when a config is read.
 */

import { isProviderName, PROVIDERS, type ProviderName } from "@vf-rl/core/providers";
import { UsageError } from "../../cli-errors.ts";
import {
  countOrAllFlag,
  headerFlag,
  headerFromStateFlag,
  httpUrlFlag,
  integerFlag,
  jsonObjectFlag,
  listFlag,
  MAX_TIMEOUT_SECONDS,
  numberFlag,
  textFlag,
} from "../../flag-values.ts";
import type { EvalSpec } from "./eval-spec.ts";
import { gateFlag } from "./gates.ts";
import { datasetNameFlag } from "./hf-hub-upload.ts";

/**
 * The kinds of value a setting takes. Each names one flag parser and one config schema
 * (eval-config.ts's `KIND_SCHEMAS`), so the flag and the config key accept the same values.
 */
export type SettingKind =
  | "text"
  | "url"
  | "count-or-all"
  | "positive-int"
  | "non-negative-int"
  | "int"
  | "temperature"
  | "timeout"
  | "json-object"
  | "sampling"
  | "switch"
  | "list"
  | "headers"
  | "headers-from-state"
  | "provider"
  | "client-type"
  | "dataset-name"
  | "runtime"
  | "cache-mode"
  | "gates";

/** How `--cache` is used (core's `CacheMode`, listed here so the declaration loads no client code). */
export const CACHE_MODES = ["record", "replay", "refresh"] as const;
export type CacheModeName = (typeof CACHE_MODES)[number];

/** Where agents run (`--runtime`): @vf-rl/agents' local sandbox, a container, or plain subprocesses. */
export const RUNTIME_TYPES = ["local", "container", "subprocess"] as const;
export type RuntimeType = (typeof RUNTIME_TYPES)[number];

/** A spec as it is built: settings land in it one by one (`sampling` and the header tables merge). */
export type SpecDraft = Partial<EvalSpec> & {
  sampling: Record<string, unknown>;
  headers: Record<string, string>;
  headersFromState: Record<string, string>;
};

/** One setting of an evaluation; see the file comment. */
export interface EvalSetting {
  /** commander's flags, e.g. "-n, --num-examples <n>"; a switch has no value ("--shuffle"). */
  flags: string;
  help: string;
  kind: SettingKind;
  /** Its keys in a TOML config, the first its name; none: a flag only. */
  config?: readonly string[];
  /** Where the value lands: a field of the spec, or a function for the settings that merge or move. */
  into: keyof EvalSpec | ((spec: SpecDraft, value: never) => void);
  /** A table whose keys merge, a config's top level under a block's (sampling, headers); else the block's value wins. */
  merges?: true;
  /** Only in an [[eval]] block, not at a config's top level (an environment's own arguments). */
  blockOnly?: true;
}

/** "-n, --num-examples <n>" -> "-n" (what messages call the flag). */
export function shortFlag(setting: EvalSetting): string {
  return setting.flags.split(/[ ,]+/)[0]!;
}

/** The flag's value parser for `kind` (commander's argParser); none for a switch. */
export function flagParser(
  kind: SettingKind,
  flag: string,
): ((value: string, previous: never) => unknown) | undefined {
  switch (kind) {
    case "text":
      return textFlag(flag);
    case "client-type": // checked when used: the check loads the clients
      return undefined;
    case "url":
      return httpUrlFlag(flag, "http://127.0.0.1:8000/v1");
    case "count-or-all":
      return countOrAllFlag(flag);
    case "positive-int":
      return integerFlag(flag, 1);
    case "non-negative-int":
      return integerFlag(flag, 0);
    case "int":
      return integerFlag(flag);
    case "temperature":
      return numberFlag(flag, { min: 0 });
    case "timeout":
      return numberFlag(flag, { positive: true, max: MAX_TIMEOUT_SECONDS });
    case "json-object":
    case "sampling": // its keys' types are checked with the spec: the check's schema is core's client's
      return jsonObjectFlag(flag);
    case "switch":
      return undefined;
    case "list":
      return listFlag;
    case "headers":
      return headerFlag;
    case "headers-from-state":
      return headerFromStateFlag;
    case "provider":
      return providerFlag;
    case "dataset-name":
      return datasetNameFlag;
    case "runtime":
      return runtimeFlag;
    case "cache-mode":
      return cacheModeFlag;
    case "gates":
      return gateFlag;
  }
}

/** Parses `-p`: one of core's providers (as verifiers' `-p` names them), else an error naming them. */
function providerFlag(value: string): ProviderName {
  if (isProviderName(value)) return value;
  throw new UsageError(
    `-p/--provider "${value}" is not a provider: use one of ${Object.keys(PROVIDERS).join(", ")}`,
  );
}

function runtimeFlag(value: string): RuntimeType {
  const found = RUNTIME_TYPES.find((type) => type === value);
  if (found) return found;
  throw new UsageError(`--runtime "${value}" is not a runtime: use one of ${RUNTIME_TYPES.join(", ")}`);
}

function cacheModeFlag(value: string): CacheModeName {
  const found = CACHE_MODES.find((mode) => mode === value);
  if (found) return found;
  throw new UsageError(`--cache-mode "${value}" is not a mode: use one of ${CACHE_MODES.join(", ")}`);
}

/** The settings of one evaluation, in the order `vf eval --help` lists them. */
export const EVAL_SETTINGS: readonly EvalSetting[] = [
  {
    flags: "-m, --model <model>",
    help: "model id, an endpoint_id of configs/endpoints.toml, or an engine checkpoint folder (default: built-in model)",
    kind: "text",
    // endpoint_id is verifiers' name of a registry alias; it wins over model when both are set.
    config: ["model", "endpoint_id"],
    into: "model",
  },
  {
    flags: "-p, --provider <name>",
    help: "where the model is served: sets -b, -k and the client type (see below)",
    kind: "provider",
    config: ["provider"],
    into: "provider",
  },
  {
    flags: "-b, --api-base-url <url>",
    help: "base URL of the API (default: the provider's, else OPENAI_BASE_URL or OpenAI's)",
    kind: "url",
    config: ["base_url", "api_base_url"],
    into: "baseUrl",
  },
  {
    flags: "-k, --api-key-var <name>",
    help: "variable holding the API key (default: the provider's, OPENAI_API_KEY for OpenAI)",
    kind: "text",
    config: ["api_key_var"],
    into: "apiKeyVar",
  },
  {
    flags: "--api-client-type <type>",
    help: "the API: openai_chat_completions (default), openai_completions (text, no tools), openai_responses, anthropic_messages",
    kind: "client-type",
    config: ["api_client_type"],
    into: "type",
  },
  {
    flags: "--env-dir-path <dir>",
    help: "folder of local environments, where a bare id is looked up first (default ./environments)",
    kind: "text",
    config: ["env_dir_path"],
    into: "envDirPath",
  },
  {
    flags: "-e, --endpoints-path <file>",
    help: "endpoint registry (default ./configs/endpoints.toml)",
    kind: "text",
    config: ["endpoints_path"],
    into: "endpointsPath",
  },
  {
    flags: "-n, --num-examples <n>",
    help: "examples to evaluate; -1 for all (default: the env's, else 5)",
    kind: "count-or-all",
    config: ["num_examples"],
    into: "numExamples",
  },
  {
    flags: "-r, --rollouts-per-example <r>",
    help: "rollouts per example (default: the env's, else 3)",
    kind: "positive-int",
    config: ["rollouts_per_example"],
    into: "rolloutsPerExample",
  },
  {
    flags: "-c, --max-concurrent <n>",
    help: "rollouts in flight at once, across all evaluations (default 32)",
    kind: "positive-int",
    config: ["max_concurrent"],
    into: "maxConcurrent",
  },
  {
    flags: "--max-concurrent-generation <n>",
    help: "rollouts being generated at once, within -c (default -c)",
    kind: "positive-int",
    config: ["max_concurrent_generation"],
    into: "maxConcurrentGeneration",
  },
  {
    flags: "--max-concurrent-scoring <n>",
    help: "groups (rollouts with -i) being scored at once, within -c, e.g. to spare a judge (default -c)",
    kind: "positive-int",
    config: ["max_concurrent_scoring"],
    into: "maxConcurrentScoring",
  },
  {
    flags: "-t, --max-tokens <n>",
    help: "max tokens per model turn",
    kind: "positive-int",
    config: ["max_tokens"],
    into: (spec, value: number) => {
      spec.sampling.max_tokens = value;
    },
  },
  {
    flags: "-T, --temperature <t>",
    help: "sampling temperature",
    kind: "temperature",
    config: ["temperature"],
    into: (spec, value: number) => {
      spec.sampling.temperature = value;
    },
  },
  {
    flags: "-S, --sampling-args <json>",
    help: "sampling arguments passed to the server (known keys such as temperature and max_tokens are type-checked)",
    kind: "sampling",
    config: ["sampling"],
    merges: true,
    // -t and -T name single keys of this table: applied after it, they win (see `applySettings`).
    into: (spec, value: Record<string, unknown>) => {
      spec.sampling = { ...spec.sampling, ...value };
    },
  },
  {
    flags: "--harness <id>",
    help: "the agent program that works on each task: bash, chat (default for a taskset: bash; an environment runs as a taskset, chat being its own turn loop)",
    kind: "text",
    config: ["harness"],
    into: "harness",
  },
  {
    flags: "--runtime <type>",
    help: `where each agent runs: ${RUNTIME_TYPES.join(", ")} (default local, a sandbox; subprocess isolates nothing)`,
    kind: "runtime",
    config: ["runtime"],
    into: "runtime",
  },
  {
    flags: "--harness-args <json>",
    help: `the harness's options, e.g. '{"tools": ["bash"]}' (a config's [eval.env.agent.harness] keys besides id)`,
    kind: "json-object",
    config: ["harness_args"],
    into: "harnessOptions",
  },
  {
    flags: "-a, --env-args <json>",
    help: "arguments for the environment's loadEnvironment",
    kind: "json-object",
    config: ["args"],
    blockOnly: true,
    into: "envArgs",
  },
  {
    flags: "-x, --extra-env-kwargs <json>",
    help: 'environment settings, e.g. {"max_turns": 3}',
    kind: "json-object",
    config: ["extra_env_kwargs"],
    into: "extraEnvKwargs",
  },
  {
    flags: "-H, --save-to-hf-hub",
    help: "upload each finished run to the Hugging Face Hub as a dataset (token in HF_TOKEN; saves the run too)",
    kind: "switch",
    config: ["save_to_hf_hub"],
    into: "saveToHfHub",
  },
  {
    flags: "-D, --hf-hub-dataset-name <name>",
    help: "the dataset -H uploads to: name or owner/name (default <env>_<model>_n<N>_r<R> of your account)",
    kind: "dataset-name",
    config: ["hf_hub_dataset_name"],
    into: "hfHubDatasetName",
  },
  {
    flags: "-C, --state-columns <a,b>",
    help: "state keys to save with each rollout",
    kind: "list",
    config: ["state_columns"],
    into: "stateColumns",
  },
  {
    flags: "--timeout <seconds>",
    help: "per-rollout time limit",
    kind: "timeout",
    config: ["timeout"],
    into: "timeoutSeconds",
  },
  {
    flags: "--max-retries <n>",
    help: "retries of rollouts that hit infrastructure errors (default 3)",
    kind: "non-negative-int",
    config: ["max_retries"],
    into: "maxRetries",
  },
  {
    flags: "--cache <dir>",
    help: "answer model calls from this folder of recorded calls, recording new ones (shared across runs; see --cache-mode)",
    kind: "text",
    config: ["cache"],
    into: "cache",
  },
  {
    flags: "--cache-mode <mode>",
    help: "record: use a recorded answer, else call and record (default); replay: recorded answers only, no network, a call not recorded fails the run; refresh: call and record over",
    kind: "cache-mode",
    config: ["cache_mode"],
    into: "cacheMode",
  },
  {
    flags: "--fail-under <gate>",
    help: "exit 3 when the run scores below: a reward (0.8), a metric's average (exact_match=0.9) or pass@k (pass@4=0.5); repeatable",
    kind: "gates",
    config: ["fail_under"],
    into: "failUnder",
  },
  {
    flags: "--shuffle",
    help: "shuffle the examples before taking -n",
    kind: "switch",
    config: ["shuffle"],
    into: "shuffle",
  },
  {
    flags: "--shuffle-seed <n>",
    help: "seed for --shuffle (default 0)",
    kind: "int",
    config: ["shuffle_seed"],
    into: "shuffleSeed",
  },
  {
    flags: "-i, --independent-scoring",
    help: "score each rollout alone instead of per group",
    kind: "switch",
    config: ["independent_scoring"],
    into: "independentScoring",
  },
  {
    flags: "-N, --no-interleave-scoring",
    help: "score after every rollout is generated, not group by group",
    kind: "switch",
    config: ["interleave_scoring"],
    into: "interleaveScoring",
  },
  {
    flags: "--header <name: value>",
    help: "extra HTTP header for the model endpoint (repeatable)",
    kind: "headers",
    // The list form ("Name: value" lines, what --header takes) wins over the table, as in verifiers.
    config: ["headers", "header"],
    merges: true,
    into: (spec, value: Record<string, string>) => {
      spec.headers = { ...spec.headers, ...value };
    },
  },
  {
    flags: "--header-from-state <name: key>",
    help: "HTTP header read from each rollout's state, e.g. 'X-Session-ID: trajectory_id' (the default; repeatable)",
    kind: "headers-from-state",
    config: ["headers_from_state", "header_from_state"],
    merges: true,
    into: (spec, value: Record<string, string>) => {
      spec.headersFromState = { ...spec.headersFromState, ...value };
    },
  },
];

/** A fresh draft: the tables settings merge into, empty. */
export function emptyDraft(): SpecDraft {
  return { sampling: {}, headers: {}, headersFromState: {} };
}

/** Puts `value` (already parsed) of `setting` into `spec`. */
export function applySetting(spec: SpecDraft, setting: EvalSetting, value: unknown): void {
  if (typeof setting.into === "function")
    (setting.into as (spec: SpecDraft, value: unknown) => void)(spec, value);
  else (spec as Record<string, unknown>)[setting.into] = value;
}

/** A setting whose value is a table of keys (-S, -a, -x), applied before the single keys. */
function isTable(setting: EvalSetting): boolean {
  return setting.kind === "json-object" || setting.kind === "sampling";
}

/**
 * Applies `values` (one per setting, undefined where unset) in an order where the single keys win
 * over the tables they are keys of: -S before -t and -T.
 */
export function applySettings(spec: SpecDraft, values: ReadonlyMap<EvalSetting, unknown>): void {
  const tablesFirst = [...values].sort(([a], [b]) => Number(!isTable(a)) - Number(!isTable(b)));
  for (const [setting, value] of tablesFirst) if (value !== undefined) applySetting(spec, setting, value);
}
