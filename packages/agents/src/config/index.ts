/**
 * @vf-rl/agents/config: the `env` tables a config names agents with (`[env.taskset]`,
 * `[env.agent.harness]`, `[env.agent.runtime]`), for `vf eval` and `vf train` alike. Zod only: a
 * host reads a config without loading the runtimes.
 */
export {
  type AgentEnvSpec,
  AgentEnvTables,
  type AgentLimits,
  AgentTable,
  agentEnvSpec,
  HarnessTable,
  RUNTIME_TYPES,
  RuntimeTable,
  type RuntimeType,
  TasksetTable,
} from "./agent-env-tables.ts";
