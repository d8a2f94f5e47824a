/**
 * How the vf command reports failures: one line of cause (which already says what to do) and, for
 * faults of ours, a hint to rerun with -v for the stack. Exit codes: 1 for a failed command, 2 for
 * bad usage (unknown flag or command, a flag with a bad value).
 *
 * Core's errors name the setting at fault, never a command-line flag (under `vf train` the same
 * setting is a config key), so the report adds a hint line naming which of vf's flags sets it, or
 * for `vf train`, which key of the training config (`flagHint`).
 */
import {
  ApiKeyRejectedError,
  EndpointRegistryUnreadableError,
  EndpointUnreachableError,
  EnvArgsError,
  EnvironmentNotFoundError,
  EnvSettingsError,
  GroupScoringRequiredError,
  isVfError,
  MissingKeyError,
  ModelEndpointUnknownError,
  ModelNotFoundError,
  OutputFolderError,
  ResumeSettingsMismatchError,
  RunFolderNotEmptyError,
  RunLockedError,
  RunsFolderNotFoundError,
  SamplingArgsError,
  UserError,
} from "@vf-rl/core/errors";
import type { Palette } from "./terminal/output.ts";
import { vfCommand } from "./vf-command.ts";

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

/**
 * The flag (or config key) that fixes `error` or the first of its causes that has one, as a line
 * for the user, or undefined. `command` is the vf command that failed ("eval", "train", ...), as
 * their flags differ.
 */
export function flagHint(error: unknown, command?: string): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const hint = ownHint(cause, command);
    if (hint) return hint;
  }
  return undefined;
}

function ownHint(error: Error, command: string | undefined): string | undefined {
  if (error instanceof EnvironmentNotFoundError && error.notInstalled) {
    return `install it with ${vfCommand(`env install ${error.envId}`)}`;
  }
  return command === "train" ? trainConfigHint(error) : evalFlagHint(error);
}

/** The flags of vf eval (vf doctor and vf view share those they have). */
function evalFlagHint(error: unknown): string | undefined {
  if (error instanceof EnvArgsError) return "fix them with -a/--env-args (JSON), e.g. -a '{\"key\": 1}'";
  if (error instanceof EnvSettingsError) {
    return "vf eval sets them with -x/--extra-env-kwargs (JSON), e.g. -x '{\"max_turns\": 3}'";
  }
  if (error instanceof GroupScoringRequiredError) return "drop -i/--independent-scoring";
  if (error instanceof SamplingArgsError)
    return "vf eval passes sampling args with -S/--sampling-args (JSON)";
  if (error instanceof MissingKeyError || error instanceof ApiKeyRejectedError) {
    return "-k/--api-key-var names the variable that holds the key";
  }
  if (error instanceof ModelNotFoundError) {
    return "-m/--model names the model: an id the server lists, or an endpoint_id of configs/endpoints.toml";
  }
  if (error instanceof EndpointUnreachableError) {
    return "-b/--api-base-url sets the URL (or url in the endpoint's row of configs/endpoints.toml)";
  }
  if (error instanceof ModelEndpointUnknownError)
    return "-b/--api-base-url gives the base URL, ending in /v1";
  if (error instanceof EndpointRegistryUnreadableError) {
    return "-e/--endpoints-path names the registry (./configs/endpoints.toml by default)";
  }
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

/** The keys of a vf train config. */
function trainConfigHint(error: unknown): string | undefined {
  if (error instanceof MissingKeyError || error instanceof ApiKeyRejectedError) {
    return "api_key_var in [inference] names the variable that holds the key";
  }
  if (error instanceof ModelNotFoundError) return "model in [inference] names the model the server serves";
  if (error instanceof SamplingArgsError) return `fix ${error.arg} in [sampling] of the config`;
  if (error instanceof EndpointUnreachableError) return "url in [inference] sets the server's URL";
  if (error instanceof OutputFolderError) return "vf train saves under output_dir of the config";
  return undefined;
}
