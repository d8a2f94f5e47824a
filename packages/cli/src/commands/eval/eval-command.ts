/**
 * `vf eval <env | config.toml>`: evaluate a model on an environment, with vf-eval's flags.
 * This file only declares the command; what it does is in eval-action.ts, loaded when it runs.
 */
import { type Command, Option } from "commander";
import {
  countOrAllFlag,
  headerFlag,
  headerFromStateFlag,
  httpUrlFlag,
  integerFlag,
  jsonObjectFlag,
  listFlag,
  MAX_TIMEOUT_SECONDS,
  numberFlag,
} from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import { envServerAddressFlag } from "./env-server-runner.ts";
import type { EvalFlags } from "./eval-action.ts";
import { registerEvalPush } from "./eval-push.ts";
import { heartbeatUrlFlag } from "./heartbeat.ts";
import { datasetNameFlag } from "./hf-hub-upload.ts";
import { providerFlag, providersHelp } from "./providers.ts";

export function registerEval(program: Command, io: Output, setExit: (code: number) => void): void {
  const command = program
    .command("eval")
    .description(
      "evaluate a model on an environment (or a TOML config's [[eval]] blocks and sweeps, side by side)",
    )
    .argument("<env>", "environment id (reverse-text, owner/name@1.0.0), package folder, or config.toml")
    .option(
      "-m, --model <model>",
      "model id, an endpoint_id of configs/endpoints.toml, or an engine checkpoint folder (default: built-in model)",
    )
    .option(
      "-p, --provider <name>",
      "where the model is served: sets -b, -k and the client type (see below)",
      providerFlag,
    )
    .option(
      "-b, --api-base-url <url>",
      "base URL of the API (default: the provider's, else OPENAI_BASE_URL or OpenAI's)",
      httpUrlFlag("-b", "http://127.0.0.1:8000/v1"),
    )
    .option(
      "-k, --api-key-var <name>",
      "variable holding the API key (default: the provider's, OPENAI_API_KEY for OpenAI)",
    )
    .option(
      "--api-client-type <type>",
      "the API: openai_chat_completions (default), openai_completions (text, no tools), openai_responses, anthropic_messages",
    )
    .option(
      "--env-dir-path <dir>",
      "folder of local environments, where a bare id is looked up first (default ./environments)",
    )
    .option("-e, --endpoints-path <file>", "endpoint registry (default ./configs/endpoints.toml)")
    .option(
      "-n, --num-examples <n>",
      "examples to evaluate; -1 for all (default: the env's, else 5)",
      countOrAllFlag("-n"),
    )
    .option(
      "-r, --rollouts-per-example <r>",
      "rollouts per example (default: the env's, else 3)",
      integerFlag("-r", 1),
    )
    .option(
      "-c, --max-concurrent <n>",
      "rollouts in flight at once, across all evaluations (default 32)",
      integerFlag("-c", 1),
    )
    .option(
      "--max-concurrent-generation <n>",
      "rollouts being generated at once, within -c (default -c)",
      integerFlag("--max-concurrent-generation", 1),
    )
    .option(
      "--max-concurrent-scoring <n>",
      "groups (rollouts with -i) being scored at once, within -c, e.g. to spare a judge (default -c)",
      integerFlag("--max-concurrent-scoring", 1),
    )
    .option("-t, --max-tokens <n>", "max tokens per model turn", integerFlag("-t", 1))
    .option("-T, --temperature <t>", "sampling temperature", numberFlag("-T", { min: 0 }))
    .option("-S, --sampling-args <json>", "sampling arguments passed through as given", jsonObjectFlag("-S"))
    .option("-a, --env-args <json>", "arguments for the environment's loadEnvironment", jsonObjectFlag("-a"))
    .option(
      "-x, --extra-env-kwargs <json>",
      'environment settings, e.g. {"max_turns": 3}',
      jsonObjectFlag("-x"),
    )
    .option("-s, --save-results", "save rollouts as they finish under <output-dir>/evals/")
    .option(
      "-R, --resume [run-dir]",
      "continue the latest incomplete run with these settings (or that folder)",
    )
    .option(
      "-H, --save-to-hf-hub",
      "upload each finished run to the Hugging Face Hub as a dataset (token in HF_TOKEN; saves the run too)",
    )
    .option(
      "-D, --hf-hub-dataset-name <name>",
      "the dataset -H uploads to: name or owner/name (default <env>_<model>_n<N>_r<R> of your account)",
      datasetNameFlag,
    )
    .option("-o, --output-dir <dir>", "where runs are saved", "outputs")
    .option("-C, --state-columns <a,b>", "state keys to save with each rollout", listFlag)
    .addOption(
      new Option("--timeout <seconds>", "per-rollout time limit").argParser(
        numberFlag("--timeout", { positive: true, max: MAX_TIMEOUT_SECONDS }),
      ),
    )
    .option(
      "--max-retries <n>",
      "retries of rollouts that hit infrastructure errors (default 3)",
      integerFlag("--max-retries", 0),
    )
    .option("--shuffle", "shuffle the examples before taking -n")
    .option("--shuffle-seed <n>", "seed for --shuffle (default 0)", integerFlag("--shuffle-seed"))
    .option("-i, --independent-scoring", "score each rollout alone instead of per group")
    .option("-N, --no-interleave-scoring", "score after every rollout is generated, not group by group")
    .option("--header <name: value>", "extra HTTP header for the model endpoint (repeatable)", headerFlag)
    .option(
      "--header-from-state <name: key>",
      "HTTP header read from each rollout's state, e.g. 'X-Session-ID: trajectory_id' (the default; repeatable)",
      headerFromStateFlag,
    )
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
      heartbeatUrlFlag,
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
    )
    .option(
      "--min-reward <r>",
      "with --export-sft: only rollouts with at least this reward",
      numberFlag("--min-reward"),
    )
    .option("--best-of-group", "with --export-sft: only the best rollout of each example")
    .option("-v, --verbose", "every error message, per-rollout values and stack traces of failures")
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
  vf eval reverse-text -m outputs/sft/final         an engine checkpoint folder, served here`,
    )
    .action(async (env: string, flags: EvalFlags) => {
      const { runEvalCommand } = await import("./eval-action.ts");
      await runEvalCommand(env, flags, { io, setExit });
    });
  registerEvalPush(command, io);
  // After the push command's example, which joins the examples above.
  command.addHelpText("after", `\nProviders (-p):\n${providersHelp()}`);
}
