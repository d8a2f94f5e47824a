/**
 * From a TOML file and command-line overrides to a checked, resolved training config: the schema
 * (unknown keys rejected with the nearest valid key), then the rules between keys, then defaults
 * that depend on the machine (the built-in base model, the run folder). Every problem is reported
 * at once, one per line, before anything starts.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "@vf-rl/core";
import { applyOverrides, type ConfigOverride } from "@vf-rl/core/config";
import { EnvironmentNotFoundError } from "@vf-rl/core/errors";
import { findEnvironment, findPackagePath, packageNameOf } from "@vf-rl/core/loading";
import { BASE_MODEL_DIR, CONFIG_FILE } from "@vf-rl/engine";
import { parse as parseToml } from "smol-toml";
import { checkConfigRules } from "./config-rules.ts";
import { describeIssues } from "./describe-issues.ts";
import { envSource } from "./env-source.ts";
import { type FreshModelConfig, TrainConfig } from "./train-config.ts";

/** A config with the model and the run folder decided. */
export type ResolvedTrainConfig = Omit<TrainConfig, "model" | "output_dir"> & {
  /** A checkpoint folder, or the architecture of a fresh model. */
  model: string | FreshModelConfig;
  output_dir: string;
};

/** Where a config came from, for messages. */
export interface ConfigSource {
  /** The parsed TOML document (or any object of the same shape). */
  raw: Record<string, unknown>;
  /** Names the source in messages (the file path). */
  where: string;
}

/** Reads and checks a TOML config file, with overrides applied on top. Throws ConfigError listing every problem. */
export async function loadTrainConfig(
  path: string,
  overrides: readonly ConfigOverride[] = [],
): Promise<ResolvedTrainConfig> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new ConfigError(
      `cannot read the training config ${path} (${error.code ?? error.message}): check the path`,
    );
  });
  let raw: Record<string, unknown>;
  try {
    raw = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const detail = (error as Error).message.split("\n")[0];
    throw new ConfigError(`${path} is not valid TOML (${detail}): fix the syntax at that line`);
  }
  return resolveTrainConfig({ raw, where: path }, overrides);
}

/** Checks a parsed config with overrides applied; throws ConfigError listing every problem. */
export function resolveTrainConfig(
  source: ConfigSource,
  overrides: readonly ConfigOverride[] = [],
): ResolvedTrainConfig {
  const raw = structuredClone(source.raw);
  applyOverrides(raw, overrides);
  const parsed = TrainConfig.safeParse(raw);
  if (!parsed.success) {
    const flags = new Map(overrides.map((o) => [o.path.join("."), o.flag]));
    const whereOf = (key: string): string => flags.get(key) ?? source.where;
    throw configError(describeIssues(parsed.error, TrainConfig, raw, whereOf));
  }
  const config = parsed.data;
  const problems = checkConfigRules(config).map((p) => `${source.where}: ${p}`);
  let model = config.model ?? builtinBaseModel();
  if (model === undefined) {
    problems.push(
      `${source.where}: no model given and the built-in base model is not in this build: set model to a checkpoint folder, or add a [model] table (d_model, n_layers, n_heads) for a fresh one`,
    );
  } else if (typeof model === "string") {
    const found = findPackagePath(model);
    if (found === undefined) {
      problems.push(
        `${source.where}: model (${JSON.stringify(model)}) is not a folder: give a checkpoint folder (config.json and model.safetensors), relative to the working folder, or one an installed package ships (@vf-env/bash-arithmetic/warm-start)${installHint(model)}`,
      );
    } else model = found;
  }
  const teacher = config.algo.type === "opd" ? config.algo.teacher : undefined;
  if (teacher?.url === undefined && teacher?.model !== undefined) {
    const found = findPackagePath(teacher.model);
    if (found === undefined) {
      problems.push(
        `${source.where}: algo.teacher.model (${JSON.stringify(teacher.model)}) is not a folder: give the teacher's checkpoint folder (config.json and model.safetensors), relative to the working folder or inside an installed package, or its server's url${installHint(teacher.model)}`,
      );
    } else teacher.model = found;
  }
  const named = [
    ...config.env.map((env, i) => ({ env, table: `env[${i}]` })),
    ...(config.eval?.env ?? []).map((env, i) => ({ env, table: `eval.env[${i}]` })),
  ];
  for (const { env, table } of named) {
    // An environment served at an address is loaded by its server, not here.
    if (env.address !== undefined) continue;
    const { id } = envSource(env);
    try {
      findEnvironment(id);
    } catch (error) {
      if (!(error instanceof EnvironmentNotFoundError)) throw error;
      const install = error.notInstalled ? `, e.g. vf env install ${id}` : "";
      const key = env.taskset ? "taskset.id" : "id";
      problems.push(`${source.where}: ${table}.${key}: ${error.message}${install}`);
    }
  }
  if (problems.length > 0) throw configError(problems);
  const outputDir =
    config.output_dir ?? `outputs/train/${envSource(config.env[0]!).id.replace(/[^A-Za-z0-9._-]+/g, "-")}`;
  return { ...config, model: model!, output_dir: outputDir };
}

/**
 * How to get a folder named inside a scoped package that is not installed: install it. (An
 * unscoped `a/b` reads as a relative path just as well, so it gets no hint.)
 */
function installHint(model: string): string {
  const name = packageNameOf(model);
  return name?.startsWith("@") ? ` (${name} is not installed here: npm install -D ${name})` : "";
}

function configError(problems: readonly string[]): ConfigError {
  return new ConfigError(
    problems.length === 1 ? problems[0]! : `${problems.length} problems:\n  ${problems.join("\n  ")}`,
  );
}

/**
 * The built-in base model the engine ships (BASE_MODEL_DIR: config.json and model.safetensors), the
 * default `model` of a training config; undefined while a build has none.
 */
export function builtinBaseModel(): string | undefined {
  return existsSync(join(BASE_MODEL_DIR, CONFIG_FILE)) ? BASE_MODEL_DIR : undefined;
}
