/**
 * `vf eval -H/--save-to-hf-hub [-D NAME]`: each finished run uploaded to the Hugging Face Hub as a
 * dataset, as verifiers' -H does (hf-hub-dataset.ts says what is uploaded), through the official
 * `@huggingface/hub` client. The token is HF_TOKEN, and HF_ENDPOINT names another Hub than
 * huggingface.co, as Hugging Face's own tools read them. The token is checked, and its account
 * named, before anything runs, so a missing or refused token costs no evaluation. A dataset named
 * without an owner goes to that account; a missing repo is created (with the account's default
 * visibility), an existing one gets a new commit.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EvaluateResult } from "@vf-rl/core";
import { UserError } from "@vf-rl/core/errors";
import type { Output } from "../../terminal/output.ts";
import type { EvalSpec } from "./eval-spec.ts";
import { datasetCard, defaultDatasetName, TRAIN_SPLIT_PATH } from "./hf-hub-dataset.ts";

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
  const hub = await import("@huggingface/hub");
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
