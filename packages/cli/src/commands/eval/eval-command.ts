/**
 * `vf eval <env | config.toml>`: evaluate a model on an environment, with vf-eval's flags.
 */
import { type Command, Option } from "commander";
import { EXIT_INTERRUPTED, UsageError } from "../../cli-errors.ts";
import { onInterrupt } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";
import { loadEvalConfig } from "./eval-config.ts";
import { type EvalPushFlags, registerEvalPush, reportUploader } from "./eval-push.ts";
import { EvalSpec, type RunSettings } from "./eval-spec.ts";
import { headerFlag, integerFlag, jsonObjectFlag, listFlag, numberFlag } from "./parse-flag-values.ts";
import { runEval } from "./run-eval.ts";

interface EvalFlags extends EvalPushFlags {
  model?: string;
  apiBaseUrl?: string;
  apiKeyVar?: string;
  endpointsPath?: string;
  numExamples?: number;
  rolloutsPerExample?: number;
  maxConcurrent?: number;
  maxTokens?: number;
  temperature?: number;
  samplingArgs?: Record<string, unknown>;
  envArgs?: Record<string, unknown>;
  extraEnvKwargs?: Record<string, unknown>;
  saveResults?: boolean;
  resume?: boolean | string;
  outputDir: string;
  stateColumns?: string[];
  timeout?: number;
  maxRetries?: number;
  shuffle?: boolean;
  shuffleSeed?: number;
  independentScoring?: boolean;
  verbose?: boolean;
  header?: Record<string, string>;
  json?: boolean;
}

/** Flags that describe one evaluation; with a config file they belong in the file. */
const SPEC_FLAGS: Array<keyof EvalFlags> = [
  "model",
  "apiBaseUrl",
  "apiKeyVar",
  "endpointsPath",
  "numExamples",
  "rolloutsPerExample",
  "maxTokens",
  "temperature",
  "samplingArgs",
  "envArgs",
  "extraEnvKwargs",
  "stateColumns",
  "timeout",
  "shuffle",
  "shuffleSeed",
  "independentScoring",
  "header",
];

export function registerEval(program: Command, io: Output, setExit: (code: number) => void): void {
  const command = program
    .command("eval")
    .description("evaluate a model on an environment (or on each [[eval]] of a TOML config)")
    .argument("<env>", "environment id (reverse-text, owner/name@1.0.0), package folder, or config.toml")
    .option(
      "-m, --model <model>",
      "model id, or an endpoint_id of configs/endpoints.toml (default: built-in model)",
    )
    .option(
      "-b, --api-base-url <url>",
      "OpenAI-compatible base URL (default: OPENAI_BASE_URL or api.openai.com)",
    )
    .option("-k, --api-key-var <name>", "variable holding the API key (default OPENAI_API_KEY for OpenAI)")
    .option("-e, --endpoints-path <file>", "endpoint registry (default ./configs/endpoints.toml)")
    .option(
      "-n, --num-examples <n>",
      "examples to evaluate; -1 for all (default: the env's, else 5)",
      integerFlag("-n"),
    )
    .option(
      "-r, --rollouts-per-example <r>",
      "rollouts per example (default: the env's, else 3)",
      integerFlag("-r", 1),
    )
    .option("-c, --max-concurrent <n>", "rollouts in flight at once (default 32)", integerFlag("-c", 1))
    .option("-t, --max-tokens <n>", "max tokens per model turn", integerFlag("-t", 1))
    .option("-T, --temperature <t>", "sampling temperature", numberFlag("-T"))
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
    .option("-o, --output-dir <dir>", "where runs are saved", "outputs")
    .option("-C, --state-columns <a,b>", "state keys to save with each rollout", listFlag)
    .addOption(new Option("--timeout <seconds>", "per-rollout time limit").argParser(numberFlag("--timeout")))
    .option(
      "--max-retries <n>",
      "retries of rollouts that hit infrastructure errors (default 3)",
      integerFlag("--max-retries", 0),
    )
    .option("--shuffle", "shuffle the examples before taking -n")
    .option("--shuffle-seed <n>", "seed for --shuffle (default 0)", integerFlag("--shuffle-seed"))
    .option("-i, --independent-scoring", "score each rollout alone instead of per group")
    .option("--header <name: value>", "extra HTTP header for the model endpoint (repeatable)", headerFlag)
    .option("--json", "print the summary as one JSON object (metadata.json's fields)")
    .option("-v, --verbose", "show stack traces of failures")
    .addHelpText(
      "after",
      `
Examples:
  vf eval reverse-text                              built-in local model, 5 examples x 3 rollouts
  vf eval gsm8k -m gpt-4.1-mini -n 20 -r 3 -s       OpenAI (OPENAI_API_KEY), saved to ./outputs
  vf eval wordle -m qwen -e configs/endpoints.toml  an endpoint_id from the registry
  vf eval ./environments/my-env -b http://127.0.0.1:8000/v1 -m my-model
  vf eval configs/eval/all.toml -s                  every [[eval]] block of a config
  vf eval gsm8k -m gpt-4.1-mini -n 20 -r 3 -s -R    continue an interrupted run`,
    )
    .action(async (env: string, flags: EvalFlags) => {
      const settings: RunSettings = {
        save: Boolean(flags.saveResults || flags.push),
        resume: flags.resume ?? false,
        outputDir: flags.outputDir,
        json: Boolean(flags.json),
        verbose: Boolean(flags.verbose),
      };
      const specs = env.endsWith(".toml") ? await configSpecs(env, flags) : [specFromFlags(env, flags)];
      const upload = await reportUploader(flags, io);
      const interrupt = onInterrupt(io);
      try {
        for (const spec of specs) {
          const result = await runEval(spec, settings, io, interrupt.signal);
          if (result.cancelled) {
            setExit(EXIT_INTERRUPTED);
            return;
          }
          await upload?.(spec.envId, result);
        }
      } finally {
        interrupt.dispose();
      }
    });
  registerEvalPush(command, io);
}

async function configSpecs(path: string, flags: EvalFlags): Promise<EvalSpec[]> {
  const given = SPEC_FLAGS.filter((key) => flags[key] !== undefined);
  if (given.length > 0) {
    throw new UsageError(
      `with a config file, set ${given.map((k) => `--${kebab(k)}`).join(", ")} in ${path} instead of on the command line`,
    );
  }
  const blocks = await loadEvalConfig(path);
  return blocks.map((block) => {
    const spec = EvalSpec.parse({
      ...block,
      ...(flags.maxConcurrent ? { maxConcurrent: flags.maxConcurrent } : {}),
    });
    if (flags.maxRetries !== undefined) spec.maxRetries = flags.maxRetries;
    return spec;
  });
}

function specFromFlags(envId: string, flags: EvalFlags): EvalSpec {
  const sampling: Record<string, unknown> = { ...flags.samplingArgs };
  if (flags.maxTokens !== undefined) sampling.max_tokens = flags.maxTokens;
  if (flags.temperature !== undefined) sampling.temperature = flags.temperature;
  const optional = {
    model: flags.model,
    baseUrl: flags.apiBaseUrl,
    apiKeyVar: flags.apiKeyVar,
    endpointsPath: flags.endpointsPath,
    numExamples: flags.numExamples,
    rolloutsPerExample: flags.rolloutsPerExample,
    maxConcurrent: flags.maxConcurrent,
    timeoutSeconds: flags.timeout,
    maxRetries: flags.maxRetries,
    shuffle: flags.shuffle,
    shuffleSeed: flags.shuffleSeed,
    independentScoring: flags.independentScoring,
    stateColumns: flags.stateColumns,
  };
  return EvalSpec.parse({
    envId,
    envArgs: flags.envArgs ?? {},
    extraEnvKwargs: flags.extraEnvKwargs ?? {},
    headers: flags.header ?? {},
    sampling,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  });
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
