/**
 * `vf doctor ENV`: the first-run protocol before training. A small baseline on the training rows
 * (by default the built-in model), then reward diversity within groups, the share of groups that
 * all fail or all pass, and advice on rollouts_per_example, batch_size and difficulty filtering.
 */
import type { Command } from "commander";
import { EXIT_INTERRUPTED } from "../../cli-errors.ts";
import { headerFlag, httpUrlFlag, integerFlag, jsonObjectFlag, numberFlag } from "../../flag-values.ts";
import { onInterrupt } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";

interface DoctorFlags {
  model?: string;
  apiBaseUrl?: string;
  apiKeyVar?: string;
  endpointsPath?: string;
  header?: Record<string, string>;
  numExamples: number;
  rolloutsPerExample: number;
  maxConcurrent: number;
  maxTokens?: number;
  temperature?: number;
  samplingArgs?: Record<string, unknown>;
  envArgs?: Record<string, unknown>;
  seed: number;
  json?: boolean;
}

export function registerDoctor(program: Command, io: Output, setExit: (code: number) => void): void {
  program
    .command("doctor")
    .description("check an environment before RL: baseline reward, reward spread within groups, advice")
    .argument("<env>", "environment id or package folder")
    .option("-m, --model <model>", "model id or endpoint_id (default: the built-in model)")
    .option(
      "-b, --api-base-url <url>",
      "OpenAI-compatible base URL",
      httpUrlFlag("-b", "http://127.0.0.1:8000/v1"),
    )
    .option("-k, --api-key-var <name>", "variable holding the API key")
    .option("-e, --endpoints-path <file>", "endpoint registry (default ./configs/endpoints.toml)")
    .option("--header <name: value>", "extra HTTP header (repeatable)", headerFlag)
    .option("-n, --num-examples <n>", "training rows to try", integerFlag("-n", 1), 20)
    .option("-r, --rollouts-per-example <r>", "rollouts per row (the group size)", integerFlag("-r", 2), 8)
    .option("-c, --max-concurrent <n>", "rollouts in flight at once", integerFlag("-c", 1), 32)
    .option("-t, --max-tokens <n>", "max tokens per model turn", integerFlag("-t", 1))
    .option(
      "-T, --temperature <t>",
      "sampling temperature (default: the server's, usually 1)",
      numberFlag("-T", { min: 0 }),
    )
    .option(
      "-S, --sampling-args <json>",
      "sampling arguments passed to the server (known keys such as temperature are type-checked)",
      jsonObjectFlag("-S"),
    )
    .option("-a, --env-args <json>", "arguments for the environment's loadEnvironment", jsonObjectFlag("-a"))
    .option(
      "--seed <n>",
      "seed of the row shuffle and of sampling (the same seed gives the same report)",
      integerFlag("--seed"),
      0,
    )
    .option("--json", "print the report as one JSON object")
    .addHelpText(
      "after",
      `
Examples:
  vf doctor reverse-text                       the built-in model, 20 rows x 8 rollouts
  vf doctor gsm8k -m gpt-4.1-mini -n 20 -r 8   an API model (OPENAI_API_KEY)`,
    )
    .action(async (envId: string, flags: DoctorFlags) => {
      const { loadEnvironmentById } = await import("@vf-rl/core/loading");
      const { formatDoctorReport, runDoctor } = await import("@vf-rl/train");
      const { connectModel } = await import("../eval/connect-model.ts");
      const { checkSamplingFlag, checkSpecPaths, EvalSpec } = await import("../eval/eval-spec.ts");
      if (flags.samplingArgs) checkSamplingFlag(flags.samplingArgs);
      const sampling: Record<string, unknown> = { ...flags.samplingArgs };
      if (flags.maxTokens !== undefined) sampling.max_tokens = flags.maxTokens;
      if (flags.temperature !== undefined) sampling.temperature = flags.temperature;
      const spec = EvalSpec.parse({
        envId,
        headers: flags.header ?? {},
        ...Object.fromEntries(
          Object.entries({
            model: flags.model,
            baseUrl: flags.apiBaseUrl,
            apiKeyVar: flags.apiKeyVar,
            endpointsPath: flags.endpointsPath,
          }).filter(([, v]) => v !== undefined),
        ),
      });
      await checkSpecPaths(spec);
      const { env, id } = await loadEnvironmentById(envId, { args: flags.envArgs ?? {} });
      const connected = await connectModel(spec);
      const interrupt = onInterrupt(io);
      try {
        io.err(
          `running ${flags.numExamples} rows x ${flags.rolloutsPerExample} rollouts of ${id} with ${connected.model}...`,
        );
        const report = await runDoctor({
          env,
          envId: id,
          clients: connected.clients,
          model: connected.model,
          numExamples: flags.numExamples,
          rolloutsPerExample: flags.rolloutsPerExample,
          sampling,
          maxConcurrent: flags.maxConcurrent,
          seed: flags.seed,
          signal: interrupt.signal,
        });
        if (flags.json) io.out(JSON.stringify(report));
        else for (const line of formatDoctorReport(report)) io.out(line);
        if (report.cancelled) setExit(EXIT_INTERRUPTED);
      } finally {
        interrupt.dispose();
        await connected.close();
        await env.teardown();
      }
    });
}
