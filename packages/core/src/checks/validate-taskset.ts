/**
 * Checks every task of a taskset without a model (`vf eval validate` on a taskset): its tasks load,
 * each prompt renders (and fits, when counted), and where the taskset knows a solution
 * (`referenceFiles`) that solution, written over the task's files in a fresh runtime, scores 1
 * (or `maxReward`).
 * No agent runs: the taskset scores the folder as it would after an agent that wrote those files.
 */
import type { AgentTask } from "../agents/agent-task.ts";
import type { AgentTrace } from "../agents/agent-trace.ts";
import type { RuntimeFactory } from "../agents/runtime.ts";
import type { Taskset } from "../agents/taskset.ts";
import type { ValidateOptions } from "./validate-environment.ts";
import type { ValidationFailure, ValidationReport } from "./validation-report.ts";

/** Options of `validateTaskset`: those of an environment's, and where the tasks' folders are made. */
export interface ValidateTasksetOptions extends ValidateOptions {
  runtimes: RuntimeFactory;
}

/** The trace handed to `score`: an agent that made no call and ended on its own. */
const NO_AGENT: AgentTrace = {
  calls: [],
  nodes: [],
  toolResults: [],
  stop: "agent_completed",
  errors: [],
  exitCode: 0,
  output: "",
};

/** No agent runs, so no server is reached; a runtime still wants an address to allow. */
const NO_SERVER = "http://127.0.0.1:9/v1";

/** Validates `taskset`'s tasks; see the file comment. Failures are in the report, never thrown. */
export async function validateTaskset(
  taskset: Taskset,
  options: ValidateTasksetOptions,
): Promise<ValidationReport> {
  const counting = options.countPromptTokens !== undefined && options.maxPromptTokens !== undefined;
  const report: ValidationReport = {
    checked: 0,
    referencesScored: 0,
    maxReward: options.maxReward ?? 1,
    maxPromptTokens: counting ? options.maxPromptTokens! : null,
    longestPrompt: null,
    failures: [],
  };
  let tasks: AgentTask[];
  try {
    tasks = await taskset.tasks({
      split: options.split ?? "eval",
      ...(options.numExamples !== undefined ? { numExamples: options.numExamples } : {}),
    });
  } catch (error) {
    report.failures.push({ kind: "load", id: "", message: messageOf(error) });
    return report;
  }
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      await checkTask(taskset, task, options, report);
      report.checked++;
      options.onRow?.(report.checked, tasks.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  const order = new Map(tasks.map((task, i) => [task.id, i]));
  report.failures.sort((a, b) => (order.get(a.id) ?? -1) - (order.get(b.id) ?? -1));
  return report;
}

async function checkTask(
  taskset: Taskset,
  task: AgentTask,
  options: ValidateTasksetOptions,
  report: ValidationReport,
): Promise<void> {
  const fail = (kind: ValidationFailure["kind"], message: string) =>
    report.failures.push({ kind, id: task.id, message });
  if (task.prompt.length === 0) return void fail("prompt", "the task's prompt has no messages: give it one");
  if (options.countPromptTokens && options.maxPromptTokens !== undefined) {
    const tokens = options.countPromptTokens(task.prompt, []);
    report.longestPrompt = Math.max(report.longestPrompt ?? 0, tokens);
    if (tokens > options.maxPromptTokens) {
      fail("too_long", `the prompt is ${tokens} tokens, over the limit of ${options.maxPromptTokens}`);
    }
  }
  if (!taskset.referenceFiles) return;
  let runtime: Awaited<ReturnType<RuntimeFactory["create"]>> | undefined;
  try {
    const files = await taskset.referenceFiles(task);
    runtime = await options.runtimes.create(task, { interceptionUrl: NO_SERVER });
    for (const [path, content] of Object.entries(files)) await runtime.writeFile(path, content);
  } catch (error) {
    await runtime?.close();
    return void fail("rollout", `the reference could not be set up: ${messageOf(error)}`);
  }
  try {
    const score = await taskset.score({ task, trace: NO_AGENT, runtime });
    report.referencesScored++;
    if (score.reward < report.maxReward - 1e-9) {
      const metrics = Object.entries(score.metrics)
        .map(([name, value]) => `${name} ${Math.round(value * 1000) / 1000}`)
        .join(", ");
      fail("below_max", `the reference scores ${score.reward} of ${report.maxReward} (${metrics})`);
    }
  } catch (error) {
    fail("scoring_error", `scoring the reference failed: ${messageOf(error)}`);
  } finally {
    await runtime.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
