/**
 * A failed zod parse in the words of an error message: where each problem is and what it is, said
 * the same way for environment arguments, tool arguments and saved runs. (The engine, which depends
 * on no package of ours, keeps its own; config files get the richer `describeConfigIssues`.)
 */
import type { z } from "zod";

/** One problem of a failed parse. */
export type SchemaIssue = z.ZodError["issues"][number];

/** Where an issue is: its dotted path (`info.turns.0`), or `root` for the value itself (default "(root)"). */
export function issuePath(issue: SchemaIssue, root = "(root)"): string {
  return issue.path.map(String).join(".") || root;
}

/**
 * Every issue as `path: message` (the value itself named `root`).
 *
 * @example
 * issueLines(schema.safeParse(args).error!, "(args)") // ["difficulty: Invalid option: ...", ...]
 */
export function issueLines(error: z.ZodError, root = "(root)"): string[] {
  return error.issues.map((issue) => `${issuePath(issue, root)}: ${issue.message}`);
}
