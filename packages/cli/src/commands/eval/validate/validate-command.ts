/**
 * `vf eval validate ENV`: every row of an environment (or task of a taskset) checked without a model:
 * it loads, its prompt renders and fits, its reference scores the maximum. Exit 0 when all pass, 1
 * when some fail, 2 for bad usage (validate-action.ts does the work, loaded when it runs). A command
 * of its own under `vf eval` (program.ts adds it there): `vf eval ENV` never loads it.
 */
import { type Command, Option } from "commander";
import { countOrAllFlag, integerFlag, jsonObjectFlag, numberFlag, textFlag } from "../../../flag-values.ts";
import type { Output } from "../../../terminal/output.ts";

/** The flags of `vf eval validate`. */
export interface ValidateFlags {
  numExamples?: number;
  split: "train" | "eval";
  envArgs?: Record<string, unknown>;
  envDirPath?: string;
  maxPromptTokens?: number;
  maxReward?: number;
  runtime?: "local" | "container" | "subprocess";
  json?: boolean;
}

/** Adds the `vf eval validate ENV` command under `vf eval`. */
export function registerEvalValidate(
  evalCommand: Command,
  io: Output,
  setExit: (code: number) => void,
): void {
  evalCommand
    .command("validate")
    .description(
      "check every row of an environment without a model: it loads, its prompt renders and fits, its reference scores the maximum",
    )
    .argument(
      "<env>",
      "environment or taskset id, or package folder",
      textFlag("the environment", "name one: an id such as reverse-text, or a package folder"),
    )
    .option("-n, --num-examples <n>", "rows to check, from the first (-1: all)", countOrAllFlag("-n"))
    .addOption(new Option("--split <split>", "which rows").choices(["train", "eval"]).default("eval"))
    .option("-a, --env-args <json>", "arguments of the environment's loadEnvironment", jsonObjectFlag("-a"))
    .option("--env-dir-path <dir>", "where local environment packages are (default ./environments)")
    .option(
      "--max-prompt-tokens <n>",
      "the most tokens a prompt may have, counted with the built-in model's tokenizer (default: its context)",
      integerFlag("--max-prompt-tokens", 1),
    )
    .option(
      "--max-reward <r>",
      "the reward a reference must reach (default: the rubric's maxReward, else the sum of its reward weights; a taskset's 1)",
      numberFlag("--max-reward"),
    )
    .addOption(
      new Option(
        "--runtime <type>",
        "where a taskset's reference solutions are scored (default local)",
      ).choices(["local", "container", "subprocess"]),
    )
    .option("--json", "print the report as one JSON object")
    .addHelpText(
      "after",
      `
Exit status: 0 when every row passes, 1 when some fail, 2 for bad usage.

Examples:
  vf eval validate reverse-text
  vf eval validate ./environments/my-env -n 50 --split train --max-prompt-tokens 4096
  vf eval validate coding-tasks --runtime subprocess    its reference fixes score 1`,
    )
    .action(async (env: string, flags: ValidateFlags) => {
      const { validateCommand } = await import("./validate-action.ts");
      setExit(await validateCommand(env, flags, io));
    });
}
