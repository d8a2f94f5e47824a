/**
 * Core's errors name the setting at fault, never a command-line flag (under `vf train` the same
 * setting is a config key). This is where the vf command adds which of its flags sets it.
 */
import {
  EnvArgsError,
  OutputFolderError,
  ResumeSettingsMismatchError,
  RunFolderNotEmptyError,
  RunLockedError,
  RunsFolderNotFoundError,
} from "@vf-rl/core/errors";

/** The flag that fixes `error`, as a line for the user, or undefined. */
export function flagHint(error: unknown): string | undefined {
  if (error instanceof EnvArgsError) return "fix them with -a/--env-args (JSON), e.g. -a '{\"key\": 1}'";
  if (error instanceof OutputFolderError) return "vf eval saves under -o/--output-dir (./outputs by default)";
  if (error instanceof RunFolderNotEmptyError) return `resume it with -R ${error.dir}`;
  if (error instanceof ResumeSettingsMismatchError) {
    return `pass the saved settings with -R ${error.dir}, or drop -R/--resume to start a new run`;
  }
  if (error instanceof RunsFolderNotFoundError) {
    return "vf eval -s saves runs under -o/--output-dir (./outputs by default); vf view takes that folder";
  }
  if (error instanceof RunLockedError) {
    return "two vf eval -R on one run would duplicate its rollouts; start a separate run without -R to work in parallel";
  }
  return undefined;
}
