/**
 * `vf sft`: supervised fine-tuning of an engine model on conversations (JSONL files) or on
 * environments' datasets with their reference answers. This file declares the command; sft-action.ts
 * does the work, loaded when it runs.
 */
import type { Command } from "commander";
import { integerFlag, jsonObjectFlag, numberFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import type { SftFlags } from "./sft-action.ts";

const repeatable = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerSft(program: Command, io: Output): void {
  program
    .command("sft")
    .description("supervised fine-tuning of an engine model on conversations or an environment's answers")
    .option(
      "--data <path>",
      'conversations ({"messages": [...]} JSONL), or saved rollouts: a run folder or results.jsonl of vf eval -s, prompt + completion JSONL (repeatable)',
      repeatable,
      [],
    )
    .option("--min-reward <r>", "keep saved rollouts with at least this reward", numberFlag("--min-reward"))
    .option("--best-of-group", "keep only the best saved rollout of each example")
    .option(
      "--eval-data <file>",
      "JSONL of held-out conversations for the eval loss (repeatable)",
      repeatable,
      [],
    )
    .option(
      "--env <id>",
      "an environment: its training rows with reference answers (repeatable)",
      repeatable,
      [],
    )
    .option(
      "-a, --env-args <json>",
      "arguments for the environments' loadEnvironment",
      jsonObjectFlag("-a"),
      {},
    )
    .option("-n, --num-examples <n>", "rows taken from each environment (default: all)", integerFlag("-n", 1))
    .option("--model <dir>", "start from this checkpoint (default: the base model)")
    .option(
      "--config <json|file>",
      "start from a fresh model of this architecture instead (JSON or config.json)",
    )
    .option("--init-seed <n>", "seed of a fresh model's initialisation", integerFlag("--init-seed"), 0)
    .option("--steps <n>", "optimizer steps", integerFlag("--steps", 1), 500)
    .option("--batch-size <n>", "conversations per step", integerFlag("--batch-size", 1), 32)
    .option("--lr <x>", "peak learning rate", numberFlag("--lr", { positive: true }), 1e-3)
    .option(
      "--warmup <n>",
      "warmup steps (default: a tenth of the steps, at most 100)",
      integerFlag("--warmup", 0),
    )
    .option("--schedule <name>", "after warmup: cosine or constant", "cosine")
    .option("--weight-decay <x>", "AdamW weight decay", numberFlag("--weight-decay", { min: 0 }), 0.01)
    .option("--clip <x>", "gradient norm clip (0: off)", numberFlag("--clip", { min: 0 }), 1)
    .option("--seed <n>", "seed of the data order", integerFlag("--seed"), 0)
    .option(
      "--eval-every <n>",
      "eval loss every n steps (default: steps / 10)",
      integerFlag("--eval-every", 1),
    )
    .option(
      "--eval-size <n>",
      "conversations held out for the eval loss without --eval-data",
      integerFlag("--eval-size", 0),
      64,
    )
    .option(
      "--save-every <n>",
      "checkpoint every n steps (0: only the final one)",
      integerFlag("--save-every", 0),
      0,
    )
    .option("-o, --output <dir>", "checkpoints, metrics.jsonl and loss-curve.svg go here", "outputs/sft")
    .option("--threads <n>", "worker threads (the cores to use)", integerFlag("--threads", 1), 2)
    .addHelpText(
      "after",
      `
Examples:
  vf sft --env reverse-text --steps 300                  fine-tune the base model on reverse-text's answers
  vf sft --data chats.jsonl --eval-data held-out.jsonl -o outputs/sft/chats
  vf sft --data outputs/evals/gsm8k--gpt-4.1/abc123 --min-reward 1 --best-of-group   distil a model's best answers
  vf sft --env reverse-text --config '{"dModel": 64, "nLayers": 2, "nHeads": 4, "dFF": 256, "maxSeqLen": 256}'
  vf eval reverse-text -m outputs/sft                    then evaluate the result (its final weights)
  vf serve --model outputs/sft/final                     or serve it`,
    )
    .action(async (flags: SftFlags) => {
      const { runSftCommand } = await import("./sft-action.ts");
      await runSftCommand(flags, io);
    });
}
