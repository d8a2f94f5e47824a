/**
 * `vf eval -H/--save-to-hf-hub [-D NAME]`: each finished run uploaded to the Hugging Face Hub as a
 * dataset, as verifiers' -H does, through the official `@huggingface/hub` client (an optional
 * package, loaded only here). The token is HF_TOKEN, and HF_ENDPOINT names another Hub than
 * huggingface.co, as Hugging Face's own tools read them. The token is checked, and its account
 * named, before anything runs, so a missing or refused token costs no evaluation. A dataset named
 * without an owner goes to that account; a missing repo is created (with the account's default
 * visibility), an existing one gets a new commit.
 *
 * What is uploaded: the dataset's name (verifiers' default `<env>_<model>_n<N>_r<R>`, or -D's) and
 * its files. verifiers pushes its rows with `datasets`, as a Parquet train split and a dataset card;
 * here the rows go as they are saved (results.jsonl, which the Hub reads as a JSON-lines split),
 * with metadata.json beside them and a card whose `configs` names the split.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EvaluateResult } from "@vf-rl/core";
import { UserError } from "@vf-rl/core/errors";
import type { RunMetadata } from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import type { EvalSpec } from "./eval-spec.ts";

const DEFAULT_ENDPOINT = "https://huggingface.co";

/** Uploads one finished, saved run of `spec` when it asks for it. */
export type HfHubUpload = (spec: EvalSpec, result: EvaluateResult) => Promise<void>;

/** The uploader when an evaluation asks for -H, after checking the token; else null. */
export async function hfHubUploader(specs: readonly EvalSpec[], io: Output): Promise<HfHubUpload | null> {
  const wanted = specs.filter((spec) => spec.saveToHfHub);
  if (wanted.length === 0) return null;
  const named = wanted.flatMap((spec) => (spec.hfHubDatasetName ? [spec.hfHubDatasetName] : []));
  const twice = named.find((name, i) => named.indexOf(name) !== i);
  if (twice) {
    throw new UserError(
      `two evaluations would upload to the Hugging Face dataset ${twice}, the second over the first: give each [[eval]] block its own hf_hub_dataset_name`,
    );
  }
  const hubUrl = (process.env.HF_ENDPOINT || DEFAULT_ENDPOINT).replace(/\/+$/, "");
  const accessToken = process.env.HF_TOKEN ?? "";
  if (!accessToken) {
    throw new UserError(
      `-H/--save-to-hf-hub needs a Hugging Face token with write access in HF_TOKEN: create one at ${hubUrl}/settings/tokens, then export HF_TOKEN=hf_...`,
    );
  }
  if (!accessToken.startsWith("hf_")) {
    throw new UserError(
      "HF_TOKEN does not hold a Hugging Face token (they start with hf_): set it to a write token",
    );
  }
  // Loaded here, not at the top: vf eval's flags (eval-settings.ts) import this file at start-up.
  const { importOptional } = await import("@vf-rl/core/loading");
  const hub = await importOptional({
    name: "@huggingface/hub",
    neededBy: "-H/--save-to-hf-hub",
    load: () => import("@huggingface/hub"),
  });
  const problem = (error: unknown) => {
    if (error instanceof hub.HubApiError) return `HTTP ${error.statusCode}: ${error.message}`;
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error instanceof Error ? error.message : String(error)}${cause}`;
  };
  const account = await hub.whoAmI({ accessToken, hubUrl }).catch((error: unknown) => {
    const refused = error instanceof hub.HubApiError && error.statusCode === 401;
    throw new UserError(
      refused
        ? `the Hugging Face Hub at ${hubUrl} refused HF_TOKEN (${problem(error)}): set HF_TOKEN to a valid write token`
        : `cannot reach the Hugging Face Hub at ${hubUrl} (${problem(error)}): check the network, or HF_ENDPOINT`,
      { cause: error },
    );
  });
  const uploaded = new Set<string>();

  return async (spec, result) => {
    if (!spec.saveToHfHub || !result.runDir) return;
    const runDir = result.runDir;
    const name = spec.hfHubDatasetName ?? defaultDatasetName(result.metadata);
    const repoName = name.includes("/") ? name : `${account.name}/${name}`;
    const kept = `the run is kept in ${runDir}`;
    if (uploaded.has(repoName)) {
      throw new UserError(
        `an earlier evaluation of this command was uploaded to the Hugging Face dataset ${repoName}, so this one was not (${kept}): give each evaluation its own hf_hub_dataset_name`,
      );
    }
    try {
      const rows = await readFile(join(runDir, "results.jsonl"));
      const metadata = await readFile(join(runDir, "metadata.json"));
      const repo = { type: "dataset" as const, name: repoName };
      await hub.createRepo({ repo, accessToken, hubUrl }).catch((error: unknown) => {
        // 409: the dataset exists already; this run is a new commit in it.
        if (!(error instanceof hub.HubApiError && error.statusCode === 409)) throw error;
      });
      const count = result.records.length;
      await hub.uploadFiles({
        repo,
        accessToken,
        hubUrl,
        commitTitle: `vf eval: ${count} rollouts of ${result.metadata.env_id} by ${result.metadata.model}`,
        files: [
          { path: TRAIN_SPLIT_PATH, content: new Blob([rows]) },
          { path: "metadata.json", content: new Blob([metadata]) },
          { path: "README.md", content: new Blob([datasetCard(result.metadata, count)]) },
        ],
      });
      uploaded.add(repoName);
      io.err(`uploaded ${count} rollouts to the Hugging Face dataset ${hubUrl}/datasets/${repoName}`);
    } catch (error) {
      throw new UserError(
        `could not upload to the Hugging Face dataset ${repoName} (${problem(error)}); ${kept}`,
        {
          cause: error,
        },
      );
    }
  };
}

/** The one split of the dataset: a fixed file, so a repo's older files under data/ never join it. */
const TRAIN_SPLIT_PATH = "data/train-00000-of-00001.jsonl";

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
function defaultDatasetName(metadata: RunMetadata): string {
  const raw = `${metadata.env_id}_${metadata.model}_n${metadata.num_examples}_r${metadata.rollouts_per_example}`;
  return raw
    .replace(/[^\w.-]/g, "_")
    .replace(/-{2,}/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, MAX_NAME);
}

/** The dataset card: the split's file for the Hub's viewer and loaders, and what the run was. */
function datasetCard(metadata: RunMetadata, rows: number): string {
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
