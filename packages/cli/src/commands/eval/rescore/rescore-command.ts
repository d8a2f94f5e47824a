/**
 * `vf eval rescore RUN_DIR`: a saved run scored again with its environment's current rubric, offline,
 * saved as a new run beside it, with what changed (rescore-action.ts does the work, loaded when it runs).
 * A command of its own under `vf eval` (program.ts adds it there): `vf eval ENV` never loads it.
 */
import type { Command } from "commander";
import { integerFlag, textFlag } from "../../../flag-values.ts";
import type { Output } from "../../../terminal/output.ts";

/** The flags of `vf eval rescore`. */
export interface RescoreFlags {
  env?: string;
  envDirPath?: string;
  output?: string;
  top: number;
  json?: boolean;
}

/** Adds the `vf eval rescore RUN_DIR` command under `vf eval`. */
export function registerEvalRescore(evalCommand: Command, io: Output): void {
  evalCommand
    .command("rescore")
    .description(
      "score a saved run again with its environment's current rubric, offline (no model calls), as a new run",
    )
    .argument("<run-dir>", "the run's folder (holding metadata.json and results.jsonl)")
    .option(
      "--env <id|folder>",
      "the environment to score with (default: the run's, by its id)",
      textFlag("--env", "name an environment id or package folder"),
    )
    .option("--env-dir-path <dir>", "where local environment packages are (default ./environments)")
    .option("--output <dir>", "the new run's folder (default: a new run id beside the source run)")
    .option("--top <n>", "how many of the largest changes to list", integerFlag("--top", 0), 5)
    .option("--json", "print the new run's metadata and the differences as one JSON object")
    .addHelpText(
      "after",
      `
The rows are the saved ones: a reward that needs the model (a judge) or state the run did not save
(-C) is reported as that function's scoring error. A taskset's agent run is scored from its saved
traces; one whose taskset reads the agent's working folder (not saved) cannot be re-scored.

Examples:
  vf eval rescore outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d
  vf eval rescore outputs/evals/my-env--qwen/1a2b3c4d --env ./environments/my-env --json`,
    )
    .action(async (runDir: string, flags: RescoreFlags) => {
      const { rescoreCommand } = await import("./rescore-action.ts");
      await rescoreCommand(runDir, flags, io);
    });
}
