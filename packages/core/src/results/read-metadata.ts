/** Reading metadata.json of a run folder, from vf or any verifiers version. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { isJsonObject, type JsonObject } from "../records/json-object.ts";
import { normalizeMetadata } from "../records/normalize-metadata.ts";
import { RunMetadata } from "../records/run-metadata.ts";
import { issueLines } from "../schema-issues.ts";
import { refuseForeignRun } from "./foreign-run.ts";
import { METADATA_FILE } from "./run-directory.ts";

/** The validated metadata, and whether the file itself said the run's status (vf's files do). */
export interface MetadataFile {
  path: string;
  metadata: RunMetadata;
  /** False for files of verifiers, which has no `status`: then it defaults to "complete". */
  hasStatus: boolean;
}

/**
 * Reads and validates `<dir>/metadata.json`; a missing or invalid file is a UserError naming it (a
 * `ForeignRunError` when the folder holds results in a layout vf does not read).
 */
export async function readMetadata(dir: string): Promise<MetadataFile> {
  const path = join(dir, METADATA_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      await refuseForeignRun(dir);
      throw new UserError(
        `${path} does not exist: point at a run folder that holds metadata.json and results.jsonl`,
      );
    }
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError(
      `${path} is not valid JSON (${(error as Error).message}): repair or delete that run folder`,
    );
  }
  if (!isJsonObject(raw)) {
    throw new UserError(`${path} does not hold a JSON object: repair or delete that run folder`);
  }
  return { path, metadata: parseMetadata(raw, path), hasStatus: typeof raw.status === "string" };
}

function parseMetadata(raw: JsonObject, path: string): RunMetadata {
  const parsed = RunMetadata.safeParse(normalizeMetadata(raw));
  if (parsed.success) return parsed.data;
  throw new UserError(
    `${path} is not valid run metadata (${issueLines(parsed.error).join("; ")}): repair or delete that run folder`,
  );
}
