/**
 * `vf eval <env | config.toml>`: evaluate a model on an environment, with vf-eval's flags.
 * This file only declares the command; what it does is in eval-action.ts, loaded when it runs.
 * `vf eval push`, `rescore` and `validate` are commands of their own (push/, rescore/, validate/),
 * which program.ts adds under this one.
 */
import { type EndpointProvider, PROVIDERS } from "@vf-rl/core/providers";
import { type Command, Option } from "commander";
import { httpUrlFlag, integerFlag, numberFlag, textFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import { hubUrlFlag } from "../hub/hub-flags.ts";
import { envServerAddressFlag } from "./env-server-runner.ts";
import type { EvalFlags } from "./eval-action.ts";
import { EVAL_SETTINGS, type EvalSetting, flagParser, shortFlag } from "./eval-settings.ts";

/** Adds `vf eval` to `program` and returns it, for its subcommands. */
export function registerEval(program: Command, io: Output, setExit: (code: number) => void): Command {
  const command: Command = program
    .command("eval")
    .description(
      "evaluate a model on an environment (or a TOML config's [[eval]] blocks and sweeps, side by side)",
    )
    .argument(
      "<env>",
      "environment id (reverse-text, or owner/name@1.0.0: installed from the Hub when missing), package folder, or config.toml",
      textFlag("the environment", "name one: an id such as reverse-text, a package folder or a config.toml"),
    );
  // The settings of an evaluation, each declared once in eval-settings.ts.
  const options = new Map<EvalSetting, Option>();
  for (const setting of EVAL_SETTINGS) {
    const option = new Option(setting.flags, setting.help);
    const parse = flagParser(setting.kind, shortFlag(setting));
    if (parse) option.argParser(parse as (value: string, previous: unknown) => unknown);
    command.addOption(option);
    options.set(setting, option);
  }
  command
    .option("-s, --save-results", "save rollouts as they finish under <output-dir>/evals/")
    .option(
      "-R, --resume [run-dir]",
      "continue the latest incomplete run with these settings (or that folder)",
    )
    .option("-o, --output-dir <dir>", "where runs are saved", "outputs")
    .option(
      "--env-server [address]",
      "run rollouts in an env server: a pool of -w workers started for this run, or a running one (tcp://...)",
      envServerAddressFlag,
    )
    .option(
      "-w, --num-workers <n>",
      "worker processes of --env-server's pool (default: one per 256 rollouts in flight)",
      integerFlag("-w", 1),
    )
    .option(
      "--heartbeat-url <url>",
      "GET this URL (an uptime monitor's) whenever rollouts finish, so it can tell when a run stalls",
      httpUrlFlag("--heartbeat-url", "https://hc-ping.com/<uuid>"),
    )
    .option(
      "--junit <file>",
      "write a JUnit XML report for CI: a test case per --fail-under gate and per example",
      textFlag("--junit"),
    )
    .option(
      "--summary-md <file>",
      "write a Markdown summary of the runs and gates (also appended to $GITHUB_STEP_SUMMARY when set)",
      textFlag("--summary-md"),
    )
    .option("--json", "print the summary as one JSON object (metadata.json's fields)")
    .option("-A, --abbreviated-summary", "leave the example prompt and completion out of the summary")
    .option(
      "-f, --fullscreen",
      "the live display on a screen of its own (the terminal's alternate screen), left with q or Enter when done",
    )
    .option(
      "-d, --disable-tui",
      "plain progress lines, one per update (for logs), instead of the live display",
    )
    .option(
      "--export-sft <file>",
      "write the rollouts as chat JSONL for vf sft --data (failed ones left out)",
      textFlag("--export-sft"),
    )
    .option(
      "--min-reward <r>",
      "with --export-sft: only rollouts with at least this reward",
      numberFlag("--min-reward"),
    )
    .option("--best-of-group", "with --export-sft: only the best rollout of each example")
    .option("-v, --verbose", "every error message, per-rollout values and stack traces of failures")
    .option("--push", "upload each finished run to the Hub as a report (implies -s)")
    .option(
      "--hub <url>",
      "the Hub for --push and for installing owner/name (default: VF_HUB_URL, else the one you logged in to)",
      hubUrlFlag,
    )
    // So that `vf eval push DIR --json` gives --json to push, not to eval.
    .enablePositionalOptions()
    .addHelpText(
      "after",
      `
Examples:
  vf eval reverse-text                              built-in local model, 5 examples x 3 rollouts
  vf eval gsm8k -m gpt-4.1-mini -n 20 -r 3 -s       OpenAI (OPENAI_API_KEY), saved to ./outputs
  vf eval wordle -m qwen -e configs/endpoints.toml  an endpoint_id from the registry
  vf eval ./environments/my-env -b http://127.0.0.1:8000/v1 -m my-model
  vf eval configs/eval/all.toml -s                  every [[eval]] block and [[ablation]] sweep of a config
  vf eval gsm8k -m gpt-4.1 -n 200 --export-sft best.jsonl --min-reward 1 --best-of-group   distillation data
  vf eval gsm8k -m gpt-4.1-mini -n 20 -r 3 -s -R    continue an interrupted run
  vf eval gsm8k -m gpt-4.1-mini -n 20 -H -D evals   the run as the Hugging Face dataset <you>/evals (HF_TOKEN)
  vf eval gsm8k -p anthropic -m claude-sonnet-5-5   Anthropic's Messages API (ANTHROPIC_API_KEY)
  vf eval gsm8k -p openrouter -m qwen/qwen3-8b      OpenRouter (OPENROUTER_API_KEY)
  vf eval reverse-text -m outputs/sft/final         an engine checkpoint folder, served here
  vf eval reverse-text -m gpt-4.1-mini --cache .vf-cache --cache-mode replay --fail-under 0.8 --junit junit.xml
                                                    CI: recorded answers only (no key), exit 3 below the gate
  vf eval ada/gsm8k@1.2.0 -m gpt-4.1-mini -n 20    a Hub environment, installed first when missing
  vf eval ada/gsm8k -m gpt-4.1-mini -n 20 --push    then publish the run as a report

Providers (-p):
${providersHelp()}`,
    )
    .action(async (env: string, flags: EvalFlags, self: Command) => {
      // The settings given on the command line (a default is not one: it must not override a config's value).
      const given = new Map<EvalSetting, unknown>();
      for (const [setting, option] of options) {
        const name = option.attributeName();
        if (self.getOptionValueSource(name) === "cli") given.set(setting, self.getOptionValue(name));
      }
      const { runEvalCommand } = await import("./eval-action.ts");
      await runEvalCommand(env, flags, given, { io, setExit });
    });
  return command;
}

/**
 * The providers of `-p` as help lines: name, URL, key variable and client type. `builtin` is vf's
 * own: the built-in local model (or, with -m, a checkpoint folder of the engine), served in this process.
 */
export function providersHelp(): string {
  return Object.entries(PROVIDERS as Record<string, EndpointProvider | null>)
    .map(([name, provider]) => {
      if (provider === null) {
        return `  ${name.padEnd(12)}vf's built-in model served locally (the default without -m), or -m <checkpoint folder>`;
      }
      const key = provider.keyOptional ? `${provider.apiKeyVar} if set` : provider.apiKeyVar;
      const type = provider.type === "openai_chat_completions" ? "" : `  ${provider.type}`;
      return `  ${name.padEnd(12)}${provider.baseUrl.padEnd(38)}${key}${type}`;
    })
    .join("\n");
}
