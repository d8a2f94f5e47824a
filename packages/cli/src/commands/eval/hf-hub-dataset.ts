/**
 * What `vf eval -H` uploads to the Hugging Face Hub for one saved run: the dataset's name (verifiers'
 * default `<env>_<model>_n<N>_r<R>`, or -D's) and its files. verifiers pushes its rows with
 * `datasets`, as a Parquet train split and a dataset card; here the rows go as they are saved
 * (results.jsonl, which the Hub reads as a JSON-lines split), with metadata.json beside them and a
 * card whose `configs` names the split. Nothing here talks to the Hub (hf-hub-upload.ts does).
 */
import type { RunMetadata } from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";

/** The one split of the dataset: a fixed file, so a repo's older files under data/ never join it. */
export const TRAIN_SPLIT_PATH = "data/train-00000-of-00001.jsonl";

// The Hub's rule for a repo name: letters, digits, "-", "_", "."; no "--" or ".."; "-" and "." not
// at either end; at most 96 characters.
const NAME = /^[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9_])?$/;
const MAX_NAME = 96;

/** What a dataset name may be, for messages. */
export const DATASET_NAME_RULE =
  'letters, digits, "-", "_" and "." (no "--" or ".."), as name or owner/name, e.g. my-evals';

/** Whether `value` is a valid dataset name: `name` or `owner/name`. */
export function isDatasetName(value: string): boolean {
  const parts = value.split("/");
  return parts.length <= 2 && parts.every(validPart);
}

/** The -D/--hf-hub-dataset-name flag's value, checked. */
export function datasetNameFlag(value: string): string {
  if (!isDatasetName(value)) {
    throw new UsageError(
      `-D/--hf-hub-dataset-name "${value}" is not a Hugging Face dataset name: use ${DATASET_NAME_RULE}`,
    );
  }
  return value;
}

function validPart(part: string): boolean {
  return part.length <= MAX_NAME && NAME.test(part) && !part.includes("--") && !part.includes("..");
}

/** verifiers' default name for a run's dataset, made a valid repo name (an env id's owner "/" too). */
export function defaultDatasetName(metadata: RunMetadata): string {
  const raw = `${metadata.env_id}_${metadata.model}_n${metadata.num_examples}_r${metadata.rollouts_per_example}`;
  return raw
    .replace(/[^\w.-]/g, "_")
    .replace(/-{2,}/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, MAX_NAME);
}

/** The dataset card: the split's file for the Hub's viewer and loaders, and what the run was. */
export function datasetCard(metadata: RunMetadata, rows: number): string {
  const passAt1 = metadata.pass_at_k["1"];
  const facts: Array<[string, string]> = [
    ["environment", `\`${metadata.env_id}\``],
    ["model", `\`${metadata.model}\``],
    ["examples", String(metadata.num_examples)],
    ["rollouts per example", String(metadata.rollouts_per_example)],
    ["rollouts", String(rows)],
    ["average reward", formatNumber(metadata.avg_reward)],
    ...(passAt1 !== undefined ? [["pass@1", formatNumber(passAt1)] as [string, string]] : []),
  ];
  return [
    "---",
    "configs:",
    "- config_name: default",
    "  data_files:",
    "  - split: train",
    `    path: ${TRAIN_SPLIT_PATH}`,
    "tags:",
    "- vf",
    "- verifiers",
    "- evaluation",
    "---",
    "",
    `# ${metadata.env_id} · ${metadata.model}`,
    "",
    "Rollouts of an evaluation run by `vf eval`, one row per rollout in verifiers' results.jsonl format",
    "(prompt, completion, answer, reward, metrics, timing, token usage). `metadata.json` holds the run's",
    "settings and averages.",
    "",
    "| | |",
    "|---|---|",
    ...facts.map(([name, value]) => `| ${name} | ${value} |`),
    "",
  ].join("\n");
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3);
}
