/**
 * A failed zod parse in the words of an error message: where each problem is and what it is. Every
 * engine boundary (model configs, the trainer protocol's requests, the server's bodies) says it the
 * same way. The engine depends on no package of ours, so it keeps this beside its errors; core has
 * its own for the values it reads.
 */
import type { z } from "zod";

/** One problem of a failed parse. */
export type SchemaIssue = z.ZodError["issues"][number];

/** Where an issue is: its dotted path (`messages.0.role`), or `root` for the value itself (default "(root)"). */
export function issuePath(issue: SchemaIssue, root = "(root)"): string {
  return issue.path.map(String).join(".") || root;
}

/**
 * Every issue as `path: message` (the value itself named `root`).
 *
 * @example
 * issueLines(ModelConfig.safeParse({ dModel: -1 }).error!, "(config)") // ["dModel: Too small: ...", ...]
 */
export function issueLines(error: z.ZodError, root = "(root)"): string[] {
  return error.issues.map((issue) => `${issuePath(issue, root)}: ${issue.message}`);
}
