/**
 * Turns zod issues from validating a config file into one readable line: the file, the key path
 * and what was expected, with a "did you mean" for unknown keys.
 */
import type { z } from "zod";
import { closestMatch } from "./closest-match.ts";

/** zod's issues as one line: `where: key.path: problem`, unknown keys with their closest known key. */
export function describeConfigIssues(error: z.ZodError, where: string, knownKeys: readonly string[]): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.join(".");
      if (issue.code === "unrecognized_keys") {
        return issue.keys
          .map((key) => {
            const suggestion = closestMatch(key, knownKeys);
            const full = path ? `${path}.${key}` : key;
            return `${where}: unknown key "${full}"${suggestion ? `: did you mean "${suggestion}"?` : ""}`;
          })
          .join("; ");
      }
      return `${where}: ${path || "(root)"}: ${issue.message}`;
    })
    .join("; ");
}
