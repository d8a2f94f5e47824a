/**
 * Data files of supervised fine-tuning (`vf sft --data`): conversation JSONL, saved rollouts (a run
 * folder of `vf eval -s` or verifiers, a results.jsonl), or any JSONL of prompt + completion rows
 * (prime-rl's SFT format). Rows with rewards go through the reward filter (a minimum reward, the
 * best of each group); each kept one is trained on its whole conversation, the loss on the model's
 * turns only.
 */
import { readFile, stat } from "node:fs/promises";
import { issueLines } from "@vf-rl/core/config";
import { UserError } from "@vf-rl/core/errors";
import {
  describeSftSelection,
  formatWarning,
  readRecordsFile,
  readRun,
  type SftFilter,
  selectSftConversations,
} from "@vf-rl/core/results";
import type { ChatMessageInput } from "@vf-rl/engine";
import { readConversations } from "./sft-data.ts";
import { modelMessages, SftConversation } from "./sft-example.ts";

/** What one data path holds. */
export type DataKind = "run" | "rollouts" | "prompt-completion" | "messages";

/** Conversations read from one data path, with one line saying what was kept. */
export interface DataSource {
  kind: DataKind;
  conversations: ChatMessageInput[][];
  note: string;
}

/** A reward filter was asked of a file whose rows carry no reward. */
export class UnfilterableDataError extends UserError {
  constructor(readonly path: string) {
    super(
      `${path} has no rewards, so the reward filter (a minimum reward, the best of each group) cannot apply to it: give a run folder or results.jsonl of saved rollouts`,
    );
  }
}

/** Reads a data path of any kind; the filter applies to rows that carry rewards. */
export async function readDataSource(path: string, filter: SftFilter): Promise<DataSource> {
  const kind = await dataKind(path);
  const filtering = filter.minReward !== undefined || filter.bestOfGroup === true;
  if (kind === "messages" || kind === "prompt-completion") {
    if (filtering) throw new UnfilterableDataError(path);
    if (kind === "messages") {
      const conversations = (await readConversations(path)).map(modelMessages);
      return { kind, conversations, note: `${path}: ${conversations.length} conversations` };
    }
    const conversations = await readPromptCompletion(path);
    return { kind, conversations, note: `${path}: ${conversations.length} prompt + completion rows` };
  }
  const loaded =
    kind === "run"
      ? await readRun(path)
      : await readRecordsFile(path).then((r) => ({
          records: r.rows.map((row) => row.record),
          warnings: r.warnings,
        }));
  if (loaded.records.length === 0) {
    const first = loaded.warnings[0];
    throw new UserError(`${path} holds no readable rollouts${first ? ` (${formatWarning(first)})` : ""}`);
  }
  const selection = selectSftConversations(loaded.records, filter);
  const conversations: ChatMessageInput[][] = [];
  let unusable = 0;
  for (const [i, conversation] of selection.conversations.entries()) {
    const tools = selection.records[i]!.tool_defs;
    const parsed = SftConversation.safeParse({ messages: conversation, tools });
    if (parsed.success) conversations.push(modelMessages(parsed.data));
    else unusable++;
  }
  const skipped = unusable > 0 ? `; ${unusable} skipped (not text the engine's chat template reads)` : "";
  const described = describeSftSelection(selection, loaded.records.length);
  return { kind, conversations, note: `${path}: ${described}${skipped}` };
}

async function dataKind(path: string): Promise<DataKind> {
  const info = await stat(path).catch(() => {
    throw new UserError(`cannot read ${path}: pass a JSONL file or a run folder of vf eval -s`);
  });
  if (info.isDirectory()) return "run";
  const first = (await readFile(path, "utf8")).split("\n").find((line) => line.trim() !== "");
  let row: unknown;
  try {
    row = JSON.parse(first ?? "");
  } catch {
    return "messages"; // readConversations names the bad line
  }
  if (typeof row !== "object" || row === null || "messages" in row) return "messages";
  return "reward" in row ? "rollouts" : "prompt-completion";
}

/** Rows of `{"prompt": ..., "completion": ...}`, each a message list or a plain text. */
async function readPromptCompletion(path: string): Promise<ChatMessageInput[][]> {
  const lines = (await readFile(path, "utf8")).split("\n");
  const conversations: ChatMessageInput[][] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const row = JSON.parse(line) as { prompt?: unknown; completion?: unknown; tools?: unknown };
    const messages = [...asMessages(row.prompt, "user"), ...asMessages(row.completion, "assistant")];
    const parsed = SftConversation.safeParse({ messages, tools: row.tools });
    if (!parsed.success) {
      throw new UserError(
        `${path}:${i + 1}: ${issueLines(parsed.error, "the row")[0]}: each line needs a prompt and a completion (message lists or text)`,
      );
    }
    conversations.push(modelMessages(parsed.data));
  });
  return conversations;
}

function asMessages(value: unknown, role: "user" | "assistant"): unknown[] {
  if (typeof value === "string") return [{ role, content: value }];
  return Array.isArray(value) ? value : [];
}
