/**
 * `vf eval ... --export-sft FILE`: the evaluation's rollouts as supervised data, filtered as
 * `vf sft --data` filters saved runs (failed ones dropped, --min-reward, --best-of-group), written as
 * chat JSONL: one `{"messages": [...]}` a line, the prompt followed by the completion, plus `tools`
 * for rollouts that had tools. `vf sft --data FILE` and prime-rl's SFT read it.
 */
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { EvaluateResult } from "@vf-rl/core";
import { OutputFolderError } from "@vf-rl/core/errors";
import {
  describeSftSelection,
  makeFolder,
  type SftFilter,
  selectSftConversations,
  writeFileAtomic,
} from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";

/** Checks before the evaluation that `path` can be written, so a finished run is not lost to a typo. */
export async function prepareSftExport(path: string): Promise<void> {
  const cannot = (reason: string) =>
    new UsageError(`--export-sft ${path}: cannot write there (${reason}): name a file in a writable folder`);
  try {
    await makeFolder(dirname(path));
  } catch (error) {
    if (error instanceof OutputFolderError) throw cannot(error.reason);
    throw error;
  }
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw cannot("it is a folder");
}

/** Writes the kept rollouts of `results` to `path`; returns one line saying what was kept. */
export async function exportSft(
  path: string,
  results: readonly EvaluateResult[],
  filter: SftFilter,
): Promise<string> {
  const records = results.flatMap((result) => result.records);
  const selection = selectSftConversations(records, filter);
  const lines = selection.conversations.map((messages, i) => {
    const tools = selection.records[i]!.tool_defs;
    return `${JSON.stringify(tools?.length ? { messages, tools } : { messages })}\n`;
  });
  await writeFileAtomic(path, lines.join(""));
  return `exported ${describeSftSelection(selection, records.length)} to ${path}`;
}
