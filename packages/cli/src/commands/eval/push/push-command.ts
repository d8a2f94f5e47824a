/**
 * `vf eval push RUN_DIR`: a saved run uploaded to the Hub as a report (report-upload.ts does the
 * work, loaded when it runs; `vf eval ... --push` uploads each finished run through it too). A
 * command of its own under `vf eval` (program.ts adds it there): `vf eval ENV` never loads it.
 */
import type { Command } from "commander";
import type { Output } from "../../../terminal/output.ts";
import { withHubFlags } from "../../hub/hub-flags.ts";
import type { PushCommandFlags } from "../report-upload.ts";

/** Adds the `vf eval push RUN_DIR` command under `vf eval`. */
export function registerEvalPush(evalCommand: Command, io: Output): void {
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
      const { pushSavedRun } = await import("../report-upload.ts");
      await pushSavedRun(runDir, flags, io);
    });
}
