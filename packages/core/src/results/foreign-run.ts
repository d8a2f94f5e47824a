/**
 * Folders of evaluation results that verifiers wrote in layouts other than metadata.json +
 * results.jsonl: vf recognises them, to say in one line what they are and what to do, but does not
 * read them.
 * - verifiers 0.1.2 and 0.1.2.post0 (`vf-eval --save-dataset`): a Hugging Face `Dataset.save_to_disk`
 *   folder (`state.json`, `dataset_info.json`, `data-*.arrow`) of the rows alone, with no id per row
 *   and nothing of the run's model, environment or rollouts per example.
 * - verifiers 0.2 on, its v1 `eval`: `config.toml` and `traces.jsonl` (episodes of traces, another
 *   data model); its main branch since writes `configs/eval.json`, and builds before July 2026 named
 *   the traces `results.jsonl`.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { isJsonObject } from "../records/json-object.ts";
import { METADATA_FILE, RESULTS_FILE } from "./run-directory.ts";

/** Which foreign layout a folder holds. */
export type ForeignLayout = "hf-dataset" | "verifiers-v1";

/** A folder holds results in a layout vf recognises but does not read; the message says what to do. */
export class ForeignRunError extends UserError {
  constructor(
    readonly dir: string,
    readonly layout: ForeignLayout,
  ) {
    super(foreignRunMessage(dir, layout));
  }
}

/** The foreign layout `dir` holds, or null (a vf or verifiers run, or no results at all). */
export async function foreignLayout(dir: string): Promise<ForeignLayout | null> {
  const [metadata, results, traces, configToml, configs, state, info] = await Promise.all(
    [
      METADATA_FILE,
      RESULTS_FILE,
      "traces.jsonl",
      "config.toml",
      "configs",
      "state.json",
      "dataset_info.json",
    ].map((name) => kindOf(join(dir, name))),
  );
  if (metadata !== null) return null;
  const v1Config = configToml === "file" || configs === "folder";
  if (v1Config && (traces === "file" || results === "file")) return "verifiers-v1";
  if (state === "file" && info === "file" && (await isDatasetState(join(dir, "state.json")))) {
    return "hf-dataset";
  }
  return null;
}

/** Throws `ForeignRunError` when `dir` holds a foreign layout. */
export async function refuseForeignRun(dir: string): Promise<void> {
  const layout = await foreignLayout(dir);
  if (layout !== null) throw new ForeignRunError(dir, layout);
}

function foreignRunMessage(dir: string, layout: ForeignLayout): string {
  switch (layout) {
    case "hf-dataset":
      return `${dir} is a Hugging Face dataset folder (save_to_disk), as verifiers 0.1.2 saved its rows with vf-eval --save-dataset: it holds no model, environment or rollout numbers, so vf cannot read it as a run; evaluate again with vf eval -s (or verifiers 0.1.2.post1 on, vf-eval -s), which saves metadata.json and results.jsonl`;
    case "verifiers-v1":
      return `${dir} is a run of verifiers' v1 eval (config.toml and traces.jsonl, verifiers 0.2 on), whose traces vf does not read: vf reads runs saved as metadata.json and results.jsonl (vf eval -s, or verifiers' vf-eval -s); open it with verifiers' own tools, or evaluate again with vf eval -s`;
  }
}

// `_data_files` is what `datasets` writes in every saved dataset's state.json.
async function isDatasetState(path: string): Promise<boolean> {
  try {
    const state: unknown = JSON.parse(await readFile(path, "utf8"));
    return isJsonObject(state) && Array.isArray(state._data_files);
  } catch {
    return false;
  }
}

async function kindOf(path: string): Promise<"file" | "folder" | null> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "folder" : "file";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}
