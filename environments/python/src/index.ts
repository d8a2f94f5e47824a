/**
 * python: GSM8K problems solved with a `python(code)` tool that runs in a per-rollout sandbox
 * (Linux namespaces, a private read-only root, resource limits, no network, no capabilities).
 * Reward: `correct_answer` (MathRubric, weight 1): 1 when the final `\boxed{}` number is right.
 * Metrics: `tool_errors` (failed calls) beside ToolEnv's `python_calls` and `total_tool_calls`.
 *
 * @example
 * const env = await loadEnvironment({ numEval: 10, timeoutSeconds: 5 });
 */
import { contentText, defineEnvironment, MathRubric, type RewardContext } from "@vf-rl/core";
import { z } from "zod";
import { loadProblems, referenceAnswer } from "./gsm8k-rows.ts";
import { PythonEnv } from "./python-env.ts";
import type { PythonData } from "./python-tool.ts";
import { checkSandbox } from "./sandbox/check-sandbox.ts";
import { SandboxOptions } from "./sandbox/sandbox-options.ts";

export { type Gsm8kSplit, loadProblems, referenceAnswer } from "./gsm8k-rows.ts";
export { PythonEnv, type PythonEnvOptions } from "./python-env.ts";
export {
  type CodeFailure,
  PythonCodeError,
  type PythonData,
  PythonToolArgs,
  pythonTool,
  toolAnswer,
} from "./python-tool.ts";
export { checkSandbox } from "./sandbox/check-sandbox.ts";
export { measureOverhead, type Overhead } from "./sandbox/measure-overhead.ts";
export { PythonSandbox } from "./sandbox/python-sandbox.ts";
export { type RunResult, WorkerAnswer } from "./sandbox/run-result.ts";
export { type SandboxCommand, sandboxCommand } from "./sandbox/sandbox-command.ts";
export { createSandboxFolder, removeSandboxFolder, type SandboxFolder } from "./sandbox/sandbox-folder.ts";
export { SandboxLimits, SandboxOptions, type SandboxOptionsInput } from "./sandbox/sandbox-options.ts";

/** The system prompt: use the tool for the arithmetic, box the number. */
export const SYSTEM_PROMPT =
  "Solve the math problem. You have a `python` tool that runs Python 3 code in a sandbox (standard library only, no network, files only in /sandbox); variables persist between calls, and it shows what the code prints. Use it for the arithmetic, then give the final answer as a number inside \\boxed{}.";

/** How many of the model's python calls failed (an exception, a limit, a timeout). */
export function toolErrors({ completion }: RewardContext<PythonData>): number {
  return completion.filter((m) => m.role === "tool" && contentText(m.content).startsWith("Error:")).length;
}

/** Arguments of `loadEnvironment` (`-a`): the rows, the turns, and the sandbox's limits and programs. */
export const PythonArgs = SandboxOptions.extend({
  /** Training problems (of the 1,000 shipped), after a seeded shuffle; all when absent. */
  numTrain: z.number().int().positive().optional(),
  /** Evaluation problems (of the 1,319 test problems), in order; all when absent. */
  numEval: z.number().int().positive().optional(),
  /** Seed of the training problems' order. */
  seed: z.number().int().default(0),
  /** Model turns per rollout. */
  maxTurns: z.number().int().positive().default(8),
}).strict();
export type PythonArgs = z.infer<typeof PythonArgs>;

export const loadEnvironment = defineEnvironment({
  args: PythonArgs,
  load: async ({ numTrain, numEval, seed, maxTurns, ...sandboxArgs }) => {
    const sandbox = SandboxOptions.parse(sandboxArgs);
    // Refuse here, before any rollout, when this machine cannot confine the code.
    await checkSandbox(sandbox);
    return new PythonEnv({
      dataset: async () => (await loadProblems("train")).shuffle(seed).take(numTrain),
      evalDataset: async () => (await loadProblems("test")).take(numEval),
      systemPrompt: SYSTEM_PROMPT,
      rubric: new MathRubric<PythonData>().addMetric(toolErrors, { name: "tool_errors" }),
      maxTurns,
      sandbox,
      referenceCompletion: (input) => [
        {
          role: "assistant",
          content: referenceAnswer(
            typeof input.info.solution === "string" ? input.info.solution : "",
            input.answer,
          ),
        },
      ],
    });
  },
});
