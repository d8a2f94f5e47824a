/**
 * Core's errors name the setting at fault, never a command-line flag (under `vf train` the same
 * setting is a config key). This is where the vf command adds which of its flags sets it.
 */
import { EnvArgsError } from "@vf-rl/core/errors";

/** The flag that fixes `error`, as a line for the user, or undefined. */
export function flagHint(error: unknown): string | undefined {
  if (error instanceof EnvArgsError) return "fix them with -a/--env-args (JSON), e.g. -a '{\"key\": 1}'";
  return undefined;
}
