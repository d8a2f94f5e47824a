/**
 * How the vf command reports failures: one line of cause (which already says what to do) and, for
 * faults of ours, a hint to rerun with -v for the stack. Exit codes: 1 for a failed command, 2 for
 * bad usage (unknown flag or command, a flag with a bad value).
 */
import { isVfError, UserError } from "@vf-rl/core/errors";
import { flagHint } from "./flag-hints.ts";
import type { Palette } from "./terminal/colour.ts";

/** A bad flag or argument: exit status 2. */
export class UsageError extends UserError {}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

export interface ReportOptions {
  verbose: boolean;
  /** The vf command that failed ("eval", "train"), for hints that name its flags or config keys. */
  command?: string | undefined;
  write: (line: string) => void;
  /** Colours "error:" when stderr is a terminal. */
  colour?: Palette;
  /** What failed, when the command does several things: "error: <subject>: <message>". */
  subject?: string;
}

/** Prints an error the way every vf command does and returns the exit code. */
export function reportError(error: unknown, options: ReportOptions): number {
  const message = error instanceof Error ? error.message : String(error);
  const subject = options.subject ? `${options.subject}: ` : "";
  options.write(`${options.colour?.red("error:") ?? "error:"} ${subject}${message}`);
  const hint = flagHint(error, options.command);
  if (hint) options.write(`hint: ${hint}`);
  if (options.verbose && error instanceof Error && error.stack) {
    options.write(error.stack);
    let cause = error.cause;
    while (cause instanceof Error) {
      options.write(`caused by: ${cause.stack ?? cause.message}`);
      cause = cause.cause;
    }
  } else if (!isVfError(error)) {
    // isVfError, not instanceof: an error of an environment's own copy of @vf-rl/core is vf's too.
    options.write("hint: this is an internal error of vf; rerun with -v for the stack trace and report it");
  }
  return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
}
