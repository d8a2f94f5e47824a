/**
 * `vf train config.toml [--key.path value ...] [--dry-run] [--resume]`: reinforcement learning on
 * the config's environments, after a supervised stage when the config has an [sft] table
 * (packages/train does the work). Ctrl-C finishes the step in progress, writes a checkpoint and
 * exits with 130; a second Ctrl-C quits at once. When it ends it prints the `vf eval` of what it
 * trained; when its config is not there, where the configs are.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { ConfigOverride } from "@vf-rl/core/config";
import { UserError } from "@vf-rl/core/errors";
import type { Command } from "commander";
import { EXIT_INTERRUPTED, UsageError } from "../../cli-errors.ts";
import { httpUrlFlag, integerFlag, textFlag } from "../../flag-values.ts";
import { checkInputPath } from "../../path-checks.ts";
import { onInterrupt } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";
import { evalCommands, vfCommand } from "../../vf-command.ts";

interface TrainFlags {
  dryRun?: boolean;
  resume?: boolean;
  resumeStep?: number;
  fork?: string;
  inferenceUrl?: string;
  trainerUrl?: string;
  verbose?: boolean;
}

export function registerTrain(program: Command, io: Output, setExit: (code: number) => void): void {
  program
    .command("train")
    .description("train a model on environments with reinforcement learning, from a TOML config")
    .argument("<config>", "training config (TOML), e.g. configs/train/reverse-text.toml")
    .argument("[overrides...]", "config keys to override: --key.path value (e.g. --max_steps 5)")
    .option("--dry-run", "check the config, print it resolved, and exit")
    .option("--resume", "continue the run in output_dir from its newest checkpoint")
    .option(
      "--resume-step <n>",
      "continue it from the checkpoint of step N instead (what came after is discarded)",
      integerFlag("--resume-step", 1),
    )
    .option(
      "--fork <run>",
      "start a new run (in output_dir) from another run's checkpoint: its folder (newest) or RUN/checkpoints/step_N",
      textFlag("--fork", "give a run folder or its checkpoints/step_N"),
    )
    .option(
      "--inference-url <url>",
      "an OpenAI-compatible server with vLLM's token fields and /update_weights (default: the engine, in this process)",
      httpUrlFlag("--inference-url", "http://127.0.0.1:8000/v1"),
    )
    .option(
      "--trainer-url <url>",
      "a vf trainer serve server (default: the engine, in this process)",
      httpUrlFlag("--trainer-url", "http://127.0.0.1:8200"),
    )
    .option("-v, --verbose", "show stack traces of failures")
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .addHelpText(
      "after",
      `
Every key of the config can be overridden: --max_steps 5, --sampling.temperature=0.7,
--env.args.min_turns 3 (the only [[env]]; --env.1.id for the second), --optimizer.learning_rate 1e-4.

Examples:
  vf train configs/train/reverse-text.toml                   the built-in base model, offline
  vf train configs/train/reverse-text.toml --dry-run         check and print the resolved config
  vf train configs/train/reverse-text.toml --max_steps 80 --resume
  vf train my.toml --inference-url http://10.0.0.3:8000/v1 --trainer-url http://10.0.0.2:8200
  vf plot outputs/train/reverse-text                         redraw the reward curve

A config's [sft] table runs a supervised stage first (max_steps, batch_size, lr, data; default data:
the [[env]] rows' reference answers), in the run folder's sft/; RL then starts from its weights.

Checkpoints ([checkpoints] interval, keep_last, keep_interval) are where a run goes on from:
  vf train my.toml --resume --resume-step 40                 back to step 40 of the same run
  vf train new.toml --fork outputs/train/reverse-text/checkpoints/step_40
                                                             a new run from another's step 40
A fork takes the checkpoint's weights, optimizer and step, and may change any key of the config.

A run folder (output_dir) holds metrics.jsonl, checkpoints/, weights/ and reward-curve.html.
vf eval ENV -m takes the run folder (its last weights) or a checkpoints/step_N folder.`,
    )
    .action(async (path: string, rest: string[], flags: TrainFlags) => {
      if (!existsSync(path)) throw await trainConfigNotFound(path);
      const { describeStages, envSource, loadTrainConfig, runStages } = await import("@vf-rl/train");
      const { parseOverrides } = await import("@vf-rl/core/config");
      const { stringify: stringifyToml } = await import("smol-toml");
      const overrides: ConfigOverride[] = parseOverrides(rest);
      const prime = overrides.find((o) => o.path[0] === "resume" || o.path[0] === "fork");
      if (prime !== undefined) {
        // prime-rl's --resume.step N and --resume.dir DIR are flags of vf train, not config keys
        throw new UsageError(
          `${prime.flag}: vf train spells it --resume-step N (this run, at step N) or --fork RUN[/checkpoints/step_N] (a new run from another's)`,
        );
      }
      if (flags.inferenceUrl !== undefined) {
        overrides.push({ path: ["inference", "url"], value: flags.inferenceUrl, flag: "--inference-url" });
      }
      if (flags.trainerUrl !== undefined) {
        overrides.push({ path: ["trainer", "url"], value: flags.trainerUrl, flag: "--trainer-url" });
      }
      await checkInputPath(path, {
        label: "the training config",
        fix: "pass a TOML file, e.g. configs/train/reverse-text.toml",
      });
      const config = await loadTrainConfig(path, overrides);
      if (flags.dryRun) {
        const toml = stringifyToml(JSON.parse(JSON.stringify(config)) as Record<string, unknown>);
        io.out(`# ${describeStages(config)}`); // a comment: the output stays the config's TOML
        io.out(toml.replace(/\n\[/g, "\n\n[").trimEnd()); // a blank line before each table
        return;
      }
      const interrupt = onInterrupt(io, "stopping after this step and writing a checkpoint");
      try {
        const result = await runStages({
          config,
          resume: Boolean(flags.resume),
          ...(flags.resumeStep !== undefined ? { resumeStep: flags.resumeStep } : {}),
          ...(flags.fork !== undefined ? { fork: flags.fork } : {}),
          signal: interrupt.signal,
          log: (line) => io.out(line),
        });
        // the command that evaluates what was trained, on the environments it was trained on
        if (result.checkpoint !== undefined && existsSync(result.checkpoint)) {
          for (const command of evalCommands(config.env.map(envSource), result.checkpoint))
            io.out(`evaluate it: ${command}`);
        }
        if (result.interrupted) setExit(EXIT_INTERRUPTED);
      } finally {
        interrupt.dispose();
      }
    });
}

/** The config file `path` does not exist. */
export class TrainConfigNotFoundError extends UserError {
  constructor(
    readonly path: string,
    hint: string,
  ) {
    super(`the training config ${path} does not exist: ${hint}`);
  }
}

/**
 * The error for a missing config `path`: the configs beside it if its folder has some, else what
 * vf setup writes (in a new project, the path is usually one of vf's own configs, as the examples
 * have it: configs/train/reverse-text.toml).
 */
async function trainConfigNotFound(path: string): Promise<TrainConfigNotFoundError> {
  const folder = dirname(path);
  const beside = existsSync(folder)
    ? (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith(".toml")).sort()
    : [];
  if (beside.length > 0) {
    return new TrainConfigNotFoundError(path, `${folder} holds ${beside.join(", ")}: check the name`);
  }
  const { shippedTrainConfigs } = await import("../setup/workspace-files.ts");
  const shipped = await shippedTrainConfigs();
  const names = shipped.length > 0 ? ` (${shipped.join(", ")})` : "";
  return new TrainConfigNotFoundError(
    path,
    `${vfCommand("setup")} writes vf's training configs${names} into configs/train, or give the path of your own`,
  );
}
