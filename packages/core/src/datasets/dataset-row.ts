/**
 * One input row of a dataset, as stored in JSONL, JSON or Parquet, in verifiers' column names.
 * This file validates a single row; numbering rows and building `Example`s is the `Dataset`'s job.
 */
import { z } from "zod";
import { Messages } from "../messages/message.ts";

const KNOWN_COLUMNS = new Set(["prompt", "question", "answer", "info", "task", "example_id"]);

/** `info` as an object, or as a JSON string holding one (handy when rows have different shapes). */
const InfoColumn = z
  .union([z.record(z.string(), z.unknown()), z.string()], {
    error: "must be an object or a JSON string holding an object",
  })
  .transform((value, ctx): Record<string, unknown> => {
    if (typeof value !== "string") return value;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        message: `is a string but not valid JSON (${(error as Error).message})`,
      });
      return z.NEVER;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: "custom", message: "is a JSON string that does not hold an object" });
      return z.NEVER;
    }
    return parsed as Record<string, unknown>;
  });

/**
 * An input row. Columns:
 * - `prompt`: chat messages, or `question`: a string (at least one of them; `prompt` wins);
 * - `answer`: a string (numbers are converted to strings); default "";
 * - `info`: an object or a JSON string of one; default {};
 * - `task`: default "default";
 * - `example_id`: an integer id; rows are numbered 0..n-1 when the column is absent, and other
 *   values are kept as `info.src_id` (see `Dataset.fromRows`);
 * - any other column is kept in `info` under its own name (a key already in `info` wins).
 * Null values count as absent (as Parquet and pandas write missing cells).
 */
export const DatasetRow = z.preprocess(
  dropNulls,
  z
    .object({
      prompt: Messages.optional(),
      question: z.string().optional(),
      answer: z
        .union([z.string(), z.number(), z.bigint()], { error: "must be a string or a number" })
        .transform(String)
        .default(""),
      info: InfoColumn.default({}),
      task: z.string().default("default"),
      example_id: z.unknown().optional(),
    })
    .catchall(z.unknown())
    .refine((row) => row.prompt !== undefined || row.question !== undefined, {
      message: 'has neither a "prompt" nor a "question" column',
    }),
);
export type DatasetRow = z.infer<typeof DatasetRow>;

/** What to do about a bad value in each column ("" is the row as a whole). */
const HINTS: Record<string, string> = {
  prompt: "give prompt as a list of chat messages {role, content}, or use a question column for plain text",
  question: "give question as a string",
  answer: "give answer as a string or a number",
  info: "give info as an object, or as a string of JSON holding one",
  task: "give task as a string",
  "": 'give every row a "prompt" (chat messages) or a "question" (string)',
};

/** The first problem of a row that failed `DatasetRow`, as "field: what is wrong: what to do". */
export function describeRowIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join("");
  const hint = HINTS[String(issue.path[0] ?? "")] ?? "fix the value";
  return `${field ? `${field}: ` : ""}${issue.message}: ${hint}`;
}

/** The columns of a row that are not among the known ones, to be kept in `info`. */
export function extraColumns(row: DatasetRow): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([key]) => !KNOWN_COLUMNS.has(key)));
}

function dropNulls(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, cell]) => cell !== null && cell !== undefined));
}
