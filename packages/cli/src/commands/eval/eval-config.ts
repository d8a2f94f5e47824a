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
 *
 * Agents: `harness = "bash"` and `runtime = "local"` (`--harness`, `--runtime`), or prime-rl's
 * `[eval.env.taskset]` / `[eval.env.agent.harness]` / `[eval.env.agent.runtime]` tables, the ones
 * `vf train`'s `[[env]]` takes (env-tables.ts); the harness's options only there.
 */
import { readFile } from "node:fs/promises";
import { ConfigError } from "@vf-rl/core";
import { ApiClientType, CheckedSamplingArgs } from "@vf-rl/core/client";
import { type ConfigOverride, describeConfigIssues, HttpUrl } from "@vf-rl/core/config";
import { PROVIDERS, type ProviderName } from "@vf-rl/core/providers";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { MAX_TIMEOUT_SECONDS } from "../../flag-values.ts";
import { checkInputPath } from "../../path-checks.ts";
import { expandAblation } from "./ablation.ts";
import { readEnvTables } from "./env-tables.ts";
import {
  applySettings,
  CACHE_MODES,
  EVAL_SETTINGS,
  type EvalSetting,
  emptyDraft,
  RUNTIME_TYPES,
  type SettingKind,
  type SpecDraft,
} from "./eval-settings.ts";
import { type EvalSpec, Gate } from "./eval-spec.ts";
import { parseGate } from "./gates.ts";
import { DATASET_NAME_RULE, isDatasetName } from "./hf-hub-upload.ts";

/** "Name: value" strings of verifiers' `header` and `header_from_state` lists. */
const HeaderLine = z.string().regex(/^[^:=\s][^:=]*[:=].*\S/, 'must look like "Name: value"');

/** A header table, or its list form ("Name: value" lines, what --header takes), as a table. */
const Headers = z
  .union([z.record(z.string(), z.string()), z.array(HeaderLine)])
  .transform((value) => (Array.isArray(value) ? headerLines(value) : value));

/** `fail_under` in a config: one gate or a list, each a number (the reward) or a gate's text; or a table of measures. */
export const GatesConfig = z
  .union([
    z.number(),
    z.string(),
    // Gate objects: what the flag's parser gives, when --fail-under overrides a config's key.
    z.array(z.union([z.number(), z.string(), Gate])),
    z.record(z.string(), z.number()),
  ])
  .transform((value, ctx): Gate[] => {
    const items = Array.isArray(value)
      ? value
      : typeof value === "object"
        ? Object.entries(value).map(([measure, threshold]) => `${measure}=${threshold}`)
        : [value];
    try {
      return items.map((item) => (typeof item === "object" ? item : parseGate(String(item))));
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^--fail-under /, "") });
      return z.NEVER;
    }
  });

/** The schema of each kind of value (eval-settings.ts), as a config key takes it. */
const KIND_SCHEMAS: Record<SettingKind, z.ZodType> = {
  text: z.string(),
  url: HttpUrl,
  "count-or-all": z
    .number()
    .int()
    .refine((n) => n === -1 || n >= 1, "must be at least 1, or -1 for all"),
  "positive-int": z.number().int().positive(),
  "non-negative-int": z.number().int().min(0),
  int: z.number().int(),
  temperature: z.number().min(0, "must be 0 or more"),
  timeout: z.number().positive().max(MAX_TIMEOUT_SECONDS, `must be at most ${MAX_TIMEOUT_SECONDS} seconds`),
  "json-object": z.record(z.string(), z.unknown()),
  sampling: CheckedSamplingArgs,
  switch: z.boolean(),
  list: z.array(z.string()),
  headers: Headers,
  "headers-from-state": Headers,
  provider: z.enum(Object.keys(PROVIDERS) as [ProviderName, ...ProviderName[]]),
  "client-type": ApiClientType,
  "dataset-name": z
    .string()
    .refine(isDatasetName, `must be a Hugging Face dataset name: ${DATASET_NAME_RULE}`),
  runtime: z.enum(RUNTIME_TYPES),
  "cache-mode": z.enum(CACHE_MODES),
  gates: GatesConfig,
};

/** Every config key of the settings, with its schema; `block`: an [[eval]] block's (blockOnly keys too). */
function settingKeys(block: boolean): Record<string, z.ZodType> {
  return Object.fromEntries(
    EVAL_SETTINGS.filter((setting) => block || !setting.blockOnly).flatMap((setting) =>
      (setting.config ?? []).map((key) => [key, KIND_SCHEMAS[setting.kind]]),
    ),
  );
}

const EvalBlock = z
  .object({
    id: z.string(),
    env_id: z.string(),
    /** The evaluation's name: its label in the comparison table, saved in metadata.json, and its folder. */
    name: z.string().min(1),
    ...settingKeys(true),
  })
  .partial()
  .strict();
type EvalBlock = Record<string, unknown> & { id?: string; env_id?: string; name?: string };

const EvalConfigFile = z
  .object({ ...settingKeys(false), eval: z.array(z.unknown()), ablation: z.array(z.unknown()) })
  .partial()
  .strict();

const KNOWN_KEYS = ["id", "env_id", "name", "eval", "ablation", ...Object.keys(settingKeys(true))];

/**
 * Reads an eval config into one spec per `[[eval]]` block, defaults merged in; `overrides` (the
 * command line's settings, as config keys) then apply to every evaluation, over the file's values.
 */
export async function loadEvalConfig(
  path: string,
  overrides: readonly ConfigOverride[] = [],
): Promise<Partial<EvalSpec>[]> {
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
  const {
    eval: blocks = [],
    ablation = [],
    ...globals
  } = file.data as Record<string, unknown> & {
    eval?: unknown[];
    ablation?: unknown[];
  };
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
    const tables = readEnvTables(value, where);
    const block = EvalBlock.safeParse(tables.block);
    if (!block.success) throw new ConfigError(describeConfigIssues(block.error, where, KNOWN_KEYS));
    const data = block.data as EvalBlock;
    const set = (key: string) => data[key] !== undefined || globals[key] !== undefined;
    if (set("base_url") && set("api_base_url")) {
      throw new ConfigError(`${where}: both "base_url" and "api_base_url" are set: keep one`, "api_base_url");
    }
    const envId = data.id ?? data.env_id;
    if (!envId) throw new ConfigError(`${where} has no id: add id = "<environment>"`, "id");
    const spec: SpecDraft = { ...emptyDraft(), envId };
    applySettings(spec, settingValues([globals, data]));
    // The command line's settings, over every evaluation's own.
    applySettings(spec, new Map(overrides.map(({ path: [key], value }) => [settingOf(key!), value])));
    if (Object.keys(tables.limits).length > 0) spec.agentLimits = tables.limits;
    if (data.name !== undefined) spec.name = data.name;
    // A sweep's cells share their block's name: their values tell them apart.
    const shown = label ?? data.name;
    if (shown !== undefined) spec.label = shown;
    return spec;
  });
}

/**
 * Each setting's value from the levels of a config, lowest first (the file's top level, then a
 * block): a later level's value wins, but a table that merges (sampling, headers) merges key by key;
 * of a setting's keys, the later one wins (the list form of headers over the table, endpoint_id
 * over model), as in verifiers.
 */
function settingValues(levels: ReadonlyArray<Record<string, unknown>>): Map<EvalSetting, unknown> {
  const values = new Map<EvalSetting, unknown>();
  for (const setting of EVAL_SETTINGS) {
    for (const level of levels) {
      for (const key of setting.config ?? []) {
        const value = level[key];
        if (value === undefined) continue;
        const earlier = values.get(setting);
        values.set(
          setting,
          setting.merges && earlier !== undefined
            ? { ...(earlier as Record<string, unknown>), ...(value as Record<string, unknown>) }
            : value,
        );
      }
    }
  }
  return values;
}

/** The setting a config key names (overrides are made from settings, so one does). */
function settingOf(key: string): EvalSetting {
  const setting = EVAL_SETTINGS.find((s) => s.config?.includes(key));
  if (!setting) throw new ConfigError(`"${key}" is not a setting of an evaluation`, key);
  return setting;
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
