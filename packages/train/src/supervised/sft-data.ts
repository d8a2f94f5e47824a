/**
 * Reading SFT data: a JSONL file with one conversation per line (`{"messages": [...]}`, with
 * `"tools": [...]` when it was offered tools), checked
 * line by line so that a bad line is reported with its number and what is wrong with it.
 */
import { readFile } from "node:fs/promises";
import { issueLines } from "@vf-rl/core/config";
import { UserError } from "@vf-rl/core/errors";
import { SftConversation } from "./sft-example.ts";

/** A training data file is missing, unreadable or has a malformed line (`line` is 1-based, 0 for the file). */
export class DataFileError extends UserError {
  constructor(
    message: string,
    readonly path: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Reads every conversation of a JSONL file; blank lines are skipped. */
export async function readConversations(path: string): Promise<SftConversation[]> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new DataFileError(
      `cannot read ${path} (${error.code ?? error.message}): pass a JSONL file with one {"messages": [...]} per line`,
      path,
      0,
    );
  });
  const conversations: SftConversation[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new DataFileError(
        `${path}:${i + 1} is not JSON (${(error as Error).message}): write one JSON object per line`,
        path,
        i + 1,
      );
    }
    const parsed = SftConversation.safeParse(json);
    if (!parsed.success) {
      throw new DataFileError(
        `${path}:${i + 1}: ${issueLines(parsed.error, "the line")[0]}: each line must be {"messages": [{"role": ..., "content": ...}, ...]} with an assistant turn`,
        path,
        i + 1,
      );
    }
    conversations.push(parsed.data);
  }
  if (conversations.length === 0) {
    throw new DataFileError(`${path} holds no conversations: add {"messages": [...]} lines`, path, 0);
  }
  return conversations;
}
