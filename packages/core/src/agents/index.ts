/**
 * @vf-rl/core/agents: agents as programs, as verifiers v1 has them. A taskset yields tasks and
 * scores what an agent left; a harness is the agent program; a runtime is where it runs; the
 * interception server stands between the harness and the model and records the trace, a message
 * graph that the env server's v1 episodes share. `runAgentRollout` runs one task end to end, and
 * `AgentEnv` makes a taskset, a harness and a runtime an environment that `evaluate` and `vf eval`
 * run; `environmentTaskset` makes any environment a taskset. Like every subpath, it exports the
 * names code outside core imports.
 */
export { AgentEnv } from "./agent-env.ts";
export { AgentTask, NetworkPolicy } from "./agent-task.ts";
export type { AgentTrace } from "./agent-trace.ts";
export { environmentTaskset } from "./environment-taskset.ts";
export type { AgentApi, Harness, HarnessContext, HarnessResult } from "./harness.ts";
export { startInterceptionServer } from "./interception-server.ts";
export { MessageGraph, type MessageNode } from "./message-graph.ts";
export { runAgentRollout } from "./run-agent-rollout.ts";
export type { ExecOptions, ExecResult, Runtime, RuntimeFactory } from "./runtime.ts";
export { type TaskTool, taskToolSession } from "./task-tools.ts";
export type { AgentScore, AgentScoreContext, Taskset } from "./taskset.ts";
