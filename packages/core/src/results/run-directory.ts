/**
 * Where a run lives on disk, in verifiers' layout:
 * `<outputDir>/evals/<env>--<model with "/" as "--">/<run id>/{metadata.json, results.jsonl}`, and
 * for an agent run `<env>--<model>--<harness>/<run id>` (verifiers v1 names its runs
 * `<env>--<model>--<harness>--<id>`), so runs of one taskset with two harnesses stay apart.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { UserError } from "../errors.ts";

/** The rows of a run, one JSON object a line. */
export const RESULTS_FILE = "results.jsonl";
/** The settings and aggregates of a run. */
export const METADATA_FILE = "metadata.json";

/** What names a run folder. */
export interface RunDirectoryOptions {
  /** The base folder (the output folder, `outputs` by default), which holds `evals/`. */
  outputDir: string;
  /** The environment id, or the run's name when it has one. */
  envId: string;
  model: string;
  /** An agent run's harness id, which ends the folder's name; absent for an environment's own run. */
  harness?: string | undefined;
  /** The run's folder name, usually from `newRunId()`. */
  runId: string;
}

/**
 * The folder of one run.
 *
 * @example
 * runDirectory({ outputDir: "outputs", envId: "gsm8k", model: "openai/gpt-4.1-mini", runId: "1a2b3c4d" })
 * // "outputs/evals/gsm8k--openai--gpt-4.1-mini/1a2b3c4d"
 */
export function runDirectory(options: RunDirectoryOptions): string {
  if (!/^[A-Za-z0-9._-]+$/.test(options.runId) || /^\.+$/.test(options.runId)) {
    throw new UserError(
      `run id "${options.runId}" cannot be a folder name: use letters, digits, ".", "_" and "-" only`,
    );
  }
  return join(envModelDirectory(options), options.runId);
}

/**
 * The folder that holds every run of one environment and model, `<outputDir>/evals/<env>--<model>`,
 * or of one taskset, model and harness, `<outputDir>/evals/<env>--<model>--<harness>`.
 */
export function envModelDirectory(options: Omit<RunDirectoryOptions, "runId">): string {
  const harness = options.harness === undefined ? "" : `--${slug(options.harness)}`;
  return join(options.outputDir, "evals", `${slug(options.envId)}--${slug(options.model)}${harness}`);
}

/** A fresh run id: 8 random hex characters, like verifiers' `uuid4().hex[:8]`. */
export function newRunId(): string {
  return randomBytes(4).toString("hex");
}

// "/" would nest folders, so it becomes "--" (a Hub id "owner/name" too, not only the model).
function slug(name: string): string {
  if (name.trim() === "")
    throw new UserError("an empty environment id, model or harness name cannot name a run folder");
  return name.replaceAll("/", "--");
}
