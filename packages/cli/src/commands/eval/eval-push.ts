/**
 * Eval reports on the Hub: `vf eval ... --push` uploads each finished run, and `vf eval push RUN_DIR`
 * uploads a saved one (report-upload.ts does the work, loaded when a push runs).
 */
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { type HubFlags, hubUrlFlag, withHubFlags } from "../hub/hub-flags.ts";

/** The flags `vf eval` gains for the Hub. */
export interface EvalPushFlags {
  push?: boolean;
  hub?: string;
}

/** The flags of `vf eval push`. */
export interface PushCommandFlags extends HubFlags {
  env?: string;
  hash?: string;
  json?: boolean;
}

/** Adds `--push` and `--hub` to `vf eval`, and the `vf eval push RUN_DIR` command. */
export function registerEvalPush(evalCommand: Command, io: Output): void {
  evalCommand
    .option("--push", "upload each finished run to the Hub as a report (implies -s)")
    .option(
      "--hub <url>",
      "the Hub for --push (default: VF_HUB_URL, else the one you logged in to)",
      hubUrlFlag,
    )
    // So that `vf eval push DIR --json` gives --json to push, not to eval.
    .enablePositionalOptions()
    .addHelpText(
      "after",
      "  vf eval ada/gsm8k -m gpt-4.1-mini -n 20 --push    then publish the run as a report",
    );

  withHubFlags(
    evalCommand
      .command("push")
      .description("upload a saved run to the Hub as a report, pinned to the environment version it used")
      .argument("<run-dir>", "the run's folder (holding metadata.json and results.jsonl)")
      .option("--env <owner/name>", "the environment on the Hub (default: the run's environment)")
      .option("--hash <sha256>", "the version's content hash (default: that of the installed package)")
      .option("--json", "print the report as JSON"),
  )
    .addHelpText(
      "after",
      `
Pushing again is safe: a complete report is left as it is, an interrupted upload resumes.

Examples:
  vf eval push outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d
  vf eval push outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d --env ada/gsm8k`,
    )
    .action(async (runDir: string, flags: PushCommandFlags) => {
      const { pushSavedRun } = await import("./report-upload.ts");
      await pushSavedRun(runDir, flags, io);
    });
}
