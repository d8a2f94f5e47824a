/**
 * @vf-rl/core/agents: agents as programs, as verifiers v1 has them. A taskset yields tasks and
 * scores what an agent left; a harness is the agent program; a runtime is where it runs; the
 * interception server stands between the harness and the model and records the trace.
 */
export { AgentTask, NetworkPolicy, TaskLimits } from "./agent-task.ts";
export type { AgentCall, AgentStop, AgentTrace } from "./agent-trace.ts";
export type { AgentApi, AgentModel, Harness, HarnessContext, HarnessResult } from "./harness.ts";
export type { ExecOptions, ExecResult, Runtime, RuntimeFactory } from "./runtime.ts";
export type { AgentScore, AgentScoreContext, Taskset } from "./taskset.ts";
