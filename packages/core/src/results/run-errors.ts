/**
 * The typed errors of saved runs. Their messages name settings in words ("resume", "the output
 * folder"), never a command-line flag: under `vf train` the same setting is a config key, so the
 * host adds its own hint from the fields (see the CLI's flag-hints.ts).
 */
import { UserError } from "../errors.ts";
import { describeMismatches, type SettingMismatch } from "./resume-settings.ts";

/** A new run was about to write into a folder that already holds rows. */
export class RunFolderNotEmptyError extends UserError {
  constructor(
    /** The run folder. */
    readonly dir: string,
    /** Its results.jsonl. */
    readonly resultsPath: string,
  ) {
    super(`${resultsPath} already holds rows: start a new run (a new run id), or resume this one`);
  }
}

/** The folder to list runs from is not a folder. */
export class RunsFolderNotFoundError extends UserError {
  constructor(readonly path: string) {
    super(
      `${path} is not a folder: pass the output folder that holds evals/ (./outputs unless the run named another), an evals folder, or a run folder`,
    );
  }
}

/** A named run cannot be resumed because its settings differ from the run asked for. */
export class ResumeSettingsMismatchError extends UserError {
  constructor(
    readonly dir: string,
    readonly mismatches: readonly SettingMismatch[],
  ) {
    super(
      `cannot resume ${dir}: its settings differ: ${describeMismatches(mismatches)}: rerun with the saved settings, or start a new run instead of resuming`,
    );
  }
}

/** Another live process is writing this run folder. */
export class RunLockedError extends UserError {
  constructor(
    readonly dir: string,
    /** The process that holds the lock. */
    readonly pid: number,
    /** The machine it runs on. */
    readonly host: string,
    /** When it took the lock, ISO 8601. */
    readonly since: string,
  ) {
    super(
      `${dir} is being written by process ${pid} on ${host} (since ${since}): wait for it to finish or stop it, then try again`,
    );
  }
}
