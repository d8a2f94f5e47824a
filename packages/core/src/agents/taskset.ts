/**
 * A taskset: the tasks of a split, and how what an agent left behind is scored. The agent's trace
 * and its working folder are both there to read, and tests can be run in its runtime (a coding
 * task's hidden tests).
 */
import type { AgentTask } from "./agent-task.ts";
import type { AgentTrace } from "./agent-trace.ts";
import type { Runtime } from "./runtime.ts";
import type { TaskTool } from "./task-tools.ts";
import type { ToolResultContext, ToolResultDecision } from "./tool-result-hook.ts";

/** What scoring reads. */
export interface AgentScoreContext {
  task: AgentTask;
  trace: AgentTrace;
  /** The runtime the agent ran in, still open: its files, and a place to run hidden tests. */
  runtime: Runtime;
}

/** A score: the reward and any metrics (weight 0), by name. */
export interface AgentScore {
  reward: number;
  metrics: Record<string, number>;
}

/** A taskset; see the file comment. */
export interface Taskset {
  readonly id: string;
  tasks(options: { split: "train" | "eval"; numExamples?: number }): Promise<AgentTask[]>;
  score(context: AgentScoreContext): Promise<AgentScore>;
  /**
   * A known-good solution of `task`: the files a solving agent would leave, written over the task's
   * own. Optional; where given, `vf eval validate` checks that it scores 1, with no model.
   */
  referenceFiles?(task: AgentTask): Promise<Record<string, string>>;
  /**
   * Tools `task`'s agent may call, served to its harness as an MCP server for the rollout's length
   * (verifiers' per-task toolsets; see task-tools.ts). Called once per rollout, so what a closure
   * holds is that rollout's alone. A tool is handed the rollout's runtime: what it leaves there
   * (a submitted answer in a file) is what `score` reads. Optional; a harness with no MCP client
   * (pi) refuses a task that has tools.
   */
  tools?(task: AgentTask): readonly TaskTool[] | Promise<readonly TaskTool[]>;
  /**
   * Sees each tool result of `task`'s agent before the model does, and may rewrite or withhold it,
   * to block a reward hack (the hidden tests read, the grader probed). Optional; see
   * tool-result-hook.ts. Every rewrite and denial is kept in the trace.
   */
  onToolResult?(
    context: ToolResultContext & { task: AgentTask },
  ): ToolResultDecision | Promise<ToolResultDecision>;
}
