/**
 * The bash-arithmetic taskset: tool-arithmetic's problems (`417 * 38 + 256`), each asked of an
 * agent that has a shell. Nothing is in its working folder; the agent is meant to run the
 * expression through bash (`echo $((417 * 38 + 256))`) and answer with the number in `\boxed{}`.
 * `score` reads the agent's last reply: 1 when its last `\boxed{}` holds the value, else 0. It
 * holds only its tasks: one object scores any number of rollouts at once.
 */
import type { ArithmeticProblem } from "@vf-env/tool-arithmetic";
import { extractBoxedAnswer } from "@vf-rl/core";
import type { AgentScore, AgentScoreContext, AgentTask, AgentTrace, Taskset } from "@vf-rl/core/agents";

/** What the task itself says before the question (the harness puts its own instructions first). */
export const SYSTEM_PROMPT =
  "Answer the arithmetic question. Give the final answer as a number inside \\boxed{}.";

/** Each task's limits: a call to run the command and one to answer, with room for one more. */
export interface TaskLimitsOptions {
  maxTurns: number;
  timeSeconds: number;
}

/** A problem as a task of `split`, the `index`th of it. */
export function problemTask(
  problem: ArithmeticProblem,
  split: "train" | "eval",
  index: number,
  limits: TaskLimitsOptions,
): AgentTask {
  return {
    id: `${split}-${index}`,
    exampleId: index,
    prompt: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: problem.question },
    ],
    answer: problem.answer,
    info: { expression: problem.expression },
    files: {},
    network: { allow: [], block: [] },
    limits,
  };
}

/** The text of the agent's last reply, or "" when it gave none. */
export function finalReply(trace: AgentTrace): string {
  const reply = trace.calls.findLast((call) => call.reply !== null)?.reply;
  return typeof reply?.content === "string" ? reply.content : "";
}

/** Calls of the bash tool across the agent's replies. */
function bashCalls(trace: AgentTrace): number {
  return trace.calls
    .flatMap((call) => call.reply?.tool_calls ?? [])
    .filter((call) => call.function.name === "bash").length;
}

/** The taskset; see the file comment. */
export class BashArithmeticTaskset implements Taskset {
  readonly id = "bash-arithmetic";

  constructor(private readonly splits: Record<"train" | "eval", AgentTask[]>) {}

  async tasks({
    split,
    numExamples,
  }: {
    split: "train" | "eval";
    numExamples?: number;
  }): Promise<AgentTask[]> {
    const tasks = this.splits[split];
    return numExamples === undefined || numExamples < 0 ? tasks : tasks.slice(0, numExamples);
  }

  async score({ task, trace }: AgentScoreContext): Promise<AgentScore> {
    const boxed = extractBoxedAnswer(finalReply(trace), { strict: true });
    return {
      reward: boxed !== null && boxed.trim() === task.answer ? 1 : 0,
      metrics: { bash_calls: bashCalls(trace), num_turns: trace.calls.length },
    };
  }
}
