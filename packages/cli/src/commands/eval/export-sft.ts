/**
 * `vf eval ... --export-sft FILE`: the evaluation's rollouts as supervised data, filtered as
 * `vf sft --data` filters saved runs (failed ones dropped, --min-reward, --best-of-group), written as
 * chat JSONL: one `{"messages": [...]}` a line, the prompt followed by the completion, plus `tools`
 * for rollouts that had tools. `vf sft --data FILE` and prime-rl's SFT read it.
 */
import type { EvaluateResult } from "@vf-rl/core";
import {
  describeSftSelection,
  type SftFilter,
  selectSftConversations,
  writeFileAtomic,
} from "@vf-rl/core/results";
import { checkOutputFile } from "../../path-checks.ts";

/** Checks before the evaluation that `path` can be written, so a finished run is not lost to a typo. */
export function prepareSftExport(path: string): Promise<void> {
  return checkOutputFile(path, { label: "--export-sft", fix: "name a file in a folder you can write" });
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
