/**
 * The bash harness: vf's own small coding agent (bash-agent.mjs, one file to read) run inside the
 * rollout's runtime with node, in the task's working folder. It speaks chat completions to the
 * interception server; its tools are `bash` and `write_file`, and the task's own tools (MCP, from
 * `mcpUrls`) beside them; it stops when the model answers
 * without a tool call, or when vf ends the run (the task's turn, token or time limit).
 *
 * @example
 * const env = new AgentEnv({ taskset, harness: bashHarness({ maxOutputChars: 4000 }), runtimes: localRuntime() });
 */
import { readFile } from "node:fs/promises";
import type { Messages } from "@vf-rl/core";
import type { Harness, HarnessContext, HarnessResult } from "@vf-rl/core/agents";
import { z } from "zod";

/** Options of `bashHarness`. */
export const BashHarnessOptions = z
  .object({
    /** Characters of a command's output the model reads; the middle of longer output is cut. Default 10000. */
    maxOutputChars: z.number().int().min(200).default(10_000),
    /** Seconds one command may run before it is killed. Default 120. */
    commandTimeoutSeconds: z.number().positive().default(120),
    /** The harness's instructions, placed before the task's own system prompt. Default `BASH_SYSTEM_PROMPT`. */
    systemPrompt: z.string().optional(),
    /** The node the agent runs with, inside the runtime. Default "node" (the runtime's PATH). */
    node: z.string().default("node"),
    /**
     * The tools offered, by name; default both. A small model's context holds only `["bash"]`
     * (the definitions are part of every prompt).
     */
    tools: z
      .array(z.enum(["bash", "write_file"]))
      .min(1)
      .default(["bash", "write_file"]),
  })
  .strict();
export type BashHarnessOptions = z.infer<typeof BashHarnessOptions>;

/** What the bash agent is told before the task. */
export const BASH_SYSTEM_PROMPT = [
  "You are a coding agent working in a folder of files on a Linux machine.",
  "Use the bash tool to look around, run programs and tests, and change files (or write_file to write a whole file).",
  "Work until the task is done; then answer with a short summary and no tool call.",
].join(" ");

/** The characters of the program's output kept for the trace. */
const OUTPUT_KEPT = 8000;
/** The longest timer Node keeps (about 24.8 days): the rollout's signal, not this, ends the agent. */
const NO_TIMEOUT_MS = 2 ** 31 - 1;

let source: Promise<string> | undefined;

/** The bash harness; see the file comment. */
export function bashHarness(options: z.input<typeof BashHarnessOptions> = {}): Harness {
  const parsed = BashHarnessOptions.parse(options);
  return {
    id: "bash",
    api: "openai_chat_completions",
    async run({ task, runtime, model, mcpUrls, signal }: HarnessContext): Promise<HarnessResult> {
      source ??= readFile(new URL("./bash-agent.mjs", import.meta.url), "utf8");
      const config = {
        baseUrl: model.baseUrl,
        apiKey: model.apiKey,
        model: model.name,
        messages: withInstructions(task.prompt, parsed.systemPrompt ?? BASH_SYSTEM_PROMPT),
        maxOutputChars: parsed.maxOutputChars,
        commandTimeoutSeconds: parsed.commandTimeoutSeconds,
        tools: parsed.tools,
        mcpUrls,
      };
      // The program comes on stdin, its config (with the rollout's secret) on its first line, so
      // neither shows in a process list.
      const result = await runtime.exec([parsed.node, "--input-type=module", "-"], {
        stdin: `globalThis.vfAgentConfig = ${JSON.stringify(config)};\n${await source}`,
        signal,
        timeoutMs: NO_TIMEOUT_MS,
      });
      const output = `${result.stdout}${result.stderr}`;
      return { exitCode: result.exitCode, output: output.slice(-OUTPUT_KEPT) };
    },
  };
}

/** The task's conversation with the harness's instructions first (merged into its system message). */
function withInstructions(prompt: Messages, instructions: string): Messages {
  const [first, ...rest] = prompt;
  if (first?.role === "system" && typeof first.content === "string") {
    return [{ role: "system", content: `${instructions}\n\n${first.content}` }, ...rest];
  }
  return [{ role: "system", content: instructions }, ...prompt];
}
