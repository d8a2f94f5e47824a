/**
 * `vf eval config.toml`: several evaluations from one file. Top-level keys are defaults for every
 * `[[eval]]` block; a block's own keys win; `[sampling]` tables merge key by key. Keys are
 * verifiers' (snake_case); unknown ones are rejected with the nearest valid key suggested.
 *
 * @example
 * model = "gpt-4.1-mini"
 * rollouts_per_example = 3
 * [[eval]]
 * id = "gsm8k"
 * num_examples = 50
 * [[eval]]
 * id = "wordle"
 * args = { num_eval = 10 }
 *
 * The model keys are verifiers': `model` or `endpoint_id`, `provider`, `api_base_url` (or `base_url`),
 * `api_key_var`, `api_client_type`, `headers` / `header`, `headers_from_state` / `header_from_state`.
 *
 * `[[ablation]]` blocks sweep values (ablation.ts); each combination is one more evaluation.
 */
import { readFile } from "node:fs/promises";
import { ConfigError } from "@vf-rl/core";
import { ApiClientType } from "@vf-rl/core/client";
import { describeConfigIssues } from "@vf-rl/core/config";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { isHttpUrl, MAX_TIMEOUT_SECONDS } from "../../flag-values.ts";
import { checkInputPath } from "../../path-checks.ts";
import { expandAblation } from "./ablation.ts";
import type { EvalSpec } from "./eval-spec.ts";
import { DATASET_NAME_RULE, isDatasetName } from "./hf-hub-upload.ts";
import { PROVIDERS, type ProviderName } from "./providers.ts";

/** Where the model is served: an http(s) URL (anything else fails every request). */
const BaseUrl = z
  .string()
  .refine(isHttpUrl, "must be an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1");

/** "Name: value" strings of verifiers' `header` and `header_from_state` lists. */
const HeaderLine = z.string().regex(/^[^:=\s][^:=]*[:=].*\S/, 'must look like "Name: value"');

const Shared = {
  model: z.string(),
  endpoint_id: z.string(),
  /** A -p shorthand (providers.ts). */
  provider: z.enum(Object.keys(PROVIDERS) as [ProviderName, ...ProviderName[]]),
  base_url: BaseUrl,
  /** verifiers' name of base_url. */
  api_base_url: BaseUrl,
  api_key_var: z.string(),
  api_client_type: ApiClientType,
  endpoints_path: z.string(),
  /** The folder of local environments (--env-dir-path). */
  env_dir_path: z.string().min(1),
  num_examples: z
    .number()
    .int()
    .refine((n) => n === -1 || n >= 1, "must be at least 1, or -1 for all"),
  rollouts_per_example: z.number().int().positive(),
  shuffle: z.boolean(),
  shuffle_seed: z.number().int(),
  sampling: z.record(z.string(), z.unknown()),
  /** Shorthands of sampling.temperature and sampling.max_tokens (what -T and -t set). */
  temperature: z.number().min(0, "must be 0 or more"),
  max_tokens: z.number().int().positive(),
  max_concurrent: z.number().int().positive(),
  /** Bounds of each phase within max_concurrent (--max-concurrent-generation, --max-concurrent-scoring). */
  max_concurrent_generation: z.number().int().positive(),
  max_concurrent_scoring: z.number().int().positive(),
  max_retries: z.number().int().min(0),
  timeout: z.number().positive().max(MAX_TIMEOUT_SECONDS, `must be at most ${MAX_TIMEOUT_SECONDS} seconds`),
  headers: z.record(z.string(), z.string()),
  /** The same as a list of "Name: value" strings (what --header takes). */
  header: z.array(HeaderLine),
  /** Headers read from each rollout's state: header name to state key. */
  headers_from_state: z.record(z.string(), z.string()),
  /** The same as a list of "Name: state_key" strings (what --header-from-state takes). */
  header_from_state: z.array(HeaderLine),
  independent_scoring: z.boolean(),
  state_columns: z.array(z.string()),
  /** Upload the finished run to the Hugging Face Hub as a dataset (-H). */
  save_to_hf_hub: z.boolean(),
  /** Its dataset (-D). */
  hf_hub_dataset_name: z
    .string()
    .refine(isDatasetName, `must be a Hugging Face dataset name: ${DATASET_NAME_RULE}`),
  extra_env_kwargs: z.record(z.string(), z.unknown()),
};

const EvalBlock = z
  .object({
    id: z.string(),
    env_id: z.string(),
    /** The evaluation's name: its label in the comparison table, saved in metadata.json, and its folder. */
    name: z.string().min(1),
    args: z.record(z.string(), z.unknown()),
    ...Shared,
  })
  .partial()
  .strict();
type EvalBlock = z.infer<typeof EvalBlock>;

const EvalConfigFile = z
  .object({ ...Shared, eval: z.array(z.unknown()), ablation: z.array(z.unknown()) })
  .partial()
  .strict();

const KNOWN_KEYS = ["id", "env_id", "name", "args", "eval", "ablation", ...Object.keys(Shared)];

/** Reads an eval config into one spec per `[[eval]]` block, defaults merged in. */
export async function loadEvalConfig(path: string): Promise<Partial<EvalSpec>[]> {
  await checkInputPath(path, { label: "the eval config", fix: "pass a TOML file of [[eval]] blocks" });
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new ConfigError(`cannot read ${path}: check the path of the config file`);
  }
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new ConfigError(`${path} is not valid TOML: ${detail}`);
  }
  const file = EvalConfigFile.safeParse(raw);
  if (!file.success) throw new ConfigError(describeConfigIssues(file.error, path, KNOWN_KEYS));
  const { eval: blocks = [], ablation = [], ...globals } = file.data;
  if (blocks.length === 0 && ablation.length === 0) {
    throw new ConfigError(
      `${path} has no [[eval]] or [[ablation]] blocks: add one with id = "<environment>"`,
    );
  }
  const written = blocks.map((block, i) => ({
    block,
    where: `${path} [[eval]] #${i + 1}`,
    label: undefined,
  }));
  const swept = ablation.flatMap((block, i) => {
    const where = `${path} [[ablation]] #${i + 1}`;
    return expandAblation(block, where).map((cell) => ({ ...cell, where: `${where} (${cell.label})` }));
  });
  return [...written, ...swept].map(({ block: value, where, label }) => {
    const block = EvalBlock.safeParse(value);
    if (!block.success) throw new ConfigError(describeConfigIssues(block.error, where, KNOWN_KEYS));
    const merged: EvalBlock = {
      ...globals,
      ...block.data,
      sampling: { ...globals.sampling, ...block.data.sampling },
      headers: { ...globals.headers, ...block.data.headers },
      headers_from_state: { ...globals.headers_from_state, ...block.data.headers_from_state },
    };
    if (merged.base_url !== undefined && merged.api_base_url !== undefined) {
      throw new ConfigError(`${where}: both "base_url" and "api_base_url" are set: keep one`, "api_base_url");
    }
    const envId = merged.id ?? merged.env_id;
    if (!envId) throw new ConfigError(`${where} has no id: add id = "<environment>"`, "id");
    const spec = toSpec(envId, merged);
    if (merged.name !== undefined) spec.name = merged.name;
    // A sweep's cells share their block's name: their values tell them apart.
    const shown = label ?? merged.name;
    if (shown !== undefined) spec.label = shown;
    return spec;
  });
}

function toSpec(envId: string, block: EvalBlock): Partial<EvalSpec> {
  const spec: Partial<EvalSpec> = {
    envId,
    envArgs: block.args ?? {},
    extraEnvKwargs: block.extra_env_kwargs ?? {},
    // The list forms win over the tables, as in verifiers.
    headers: { ...block.headers, ...headerLines(block.header) },
    headersFromState: { ...block.headers_from_state, ...headerLines(block.header_from_state) },
    sampling: {
      ...block.sampling,
      ...(block.temperature !== undefined ? { temperature: block.temperature } : {}),
      ...(block.max_tokens !== undefined ? { max_tokens: block.max_tokens } : {}),
    },
  };
  const model = block.endpoint_id ?? block.model;
  if (model !== undefined) spec.model = model;
  const baseUrl = block.base_url ?? block.api_base_url;
  if (baseUrl !== undefined) spec.baseUrl = baseUrl;
  if (block.api_key_var !== undefined) spec.apiKeyVar = block.api_key_var;
  if (block.provider !== undefined) spec.provider = block.provider;
  if (block.api_client_type !== undefined) spec.type = block.api_client_type;
  if (block.endpoints_path !== undefined) spec.endpointsPath = block.endpoints_path;
  if (block.env_dir_path !== undefined) spec.envDirPath = block.env_dir_path;
  if (block.num_examples !== undefined) spec.numExamples = block.num_examples;
  if (block.rollouts_per_example !== undefined) spec.rolloutsPerExample = block.rollouts_per_example;
  if (block.shuffle !== undefined) spec.shuffle = block.shuffle;
  if (block.shuffle_seed !== undefined) spec.shuffleSeed = block.shuffle_seed;
  if (block.max_concurrent !== undefined) spec.maxConcurrent = block.max_concurrent;
  if (block.max_concurrent_generation !== undefined)
    spec.maxConcurrentGeneration = block.max_concurrent_generation;
  if (block.max_concurrent_scoring !== undefined) spec.maxConcurrentScoring = block.max_concurrent_scoring;
  if (block.max_retries !== undefined) spec.maxRetries = block.max_retries;
  if (block.timeout !== undefined) spec.timeoutSeconds = block.timeout;
  if (block.independent_scoring !== undefined) spec.independentScoring = block.independent_scoring;
  if (block.state_columns !== undefined) spec.stateColumns = block.state_columns;
  if (block.save_to_hf_hub !== undefined) spec.saveToHfHub = block.save_to_hf_hub;
  if (block.hf_hub_dataset_name !== undefined) spec.hfHubDatasetName = block.hf_hub_dataset_name;
  return spec;
}

/** "Name: value" (or "Name=value") lines as a table. */
function headerLines(lines: string[] | undefined): Record<string, string> {
  const table: Record<string, string> = {};
  for (const line of lines ?? []) {
    const at = line.search(/[:=]/);
    table[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return table;
}
