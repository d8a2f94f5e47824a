/**
 * How a config names agents, declared once for `vf eval` and `vf train`: prime-rl's (and verifiers
 * v1's) `env` table of an `[[eval]]` or `[[env]]` block,
 *
 *   [env.taskset]          id = "bash-arithmetic", the other keys its arguments
 *   [env.agent.harness]    id = "bash", the other keys the harness's options (tools, systemPrompt, ...)
 *   [env.agent.runtime]    type = "local" | "container" | "subprocess"
 *   [env.agent]            max_turns, timeout (seconds), max_output_tokens: each task's limits
 *
 * `[env.harness]` and `[env.runtime]` (the words of vf's issue and verifiers v1) name the same
 * tables one level up. This file loads nothing but zod, so reading a config does not load the
 * runtimes or harnesses.
 */
import { z } from "zod";

/** Where agents run: the local sandbox, a container, or plain subprocesses. */
export const RUNTIME_TYPES = ["local", "container", "subprocess"] as const;
export type RuntimeType = (typeof RUNTIME_TYPES)[number];

/** `[env.taskset]`: the taskset's (or environment's) id; its other keys are its arguments. */
export const TasksetTable = z.looseObject({ id: z.string().min(1) });
export type TasksetTable = z.infer<typeof TasksetTable>;

/** `[env.agent.harness]`: a harness id (bash, chat, claude-code, ...); its other keys are its options. */
export const HarnessTable = z.looseObject({ id: z.string().min(1) });
export type HarnessTable = z.infer<typeof HarnessTable>;

/** `[env.agent.runtime]`: where each agent runs. */
export const RuntimeTable = z.strictObject({ type: z.enum(RUNTIME_TYPES) });
export type RuntimeTable = z.infer<typeof RuntimeTable>;

/** `[env.agent]`: who works on the tasks, where, and the limits over each task's own. */
export const AgentTable = z.strictObject({
  harness: HarnessTable.optional(),
  runtime: RuntimeTable.optional(),
  /** Model calls at most per rollout. */
  max_turns: z.number().int().positive().optional(),
  /** Wall time of a rollout, in seconds. */
  timeout: z.number().positive().optional(),
  /** Completion tokens over a rollout's calls at most. */
  max_output_tokens: z.number().int().positive().optional(),
});
export type AgentTable = z.infer<typeof AgentTable>;

/** The `env` table of a block; see the file comment. */
export const AgentEnvTables = z
  .strictObject({
    taskset: TasksetTable.optional(),
    agent: AgentTable.optional(),
    harness: HarnessTable.optional(),
    runtime: RuntimeTable.optional(),
  })
  .superRefine((env, context) => {
    for (const key of ["harness", "runtime"] as const) {
      if (env[key] !== undefined && env.agent?.[key] !== undefined) {
        context.addIssue({
          code: "custom",
          path: [key],
          message: `is set twice, as env.${key} and env.agent.${key}: keep one (prime-rl's is env.agent.${key})`,
        });
      }
    }
  });
export type AgentEnvTables = z.infer<typeof AgentEnvTables>;

/** What the tables name, in the words `loadAgentEnv` takes. */
export interface AgentEnvSpec {
  /** The taskset's id, when `[env.taskset]` names one. */
  id?: string;
  /** The taskset's arguments (`[env.taskset]` besides `id`); empty when it has none. */
  args: Record<string, unknown>;
  harness?: string;
  /** The harness's options (`[env.agent.harness]` besides `id`); empty when it has none. */
  harnessOptions: Record<string, unknown>;
  runtime?: RuntimeType;
  /** Limits over each task's own (`[env.agent]` max_turns, timeout, max_output_tokens); empty when none. */
  limits: AgentLimits;
}

/** Limits set over each task's own, in the words of core's `TaskLimits`. */
export interface AgentLimits {
  maxTurns?: number;
  timeSeconds?: number;
  maxCompletionTokens?: number;
}

/** The tables of `env`, read; see `AgentEnvSpec`. */
export function agentEnvSpec(env: AgentEnvTables): AgentEnvSpec {
  const { id, ...args } = env.taskset ?? {};
  const agent = env.agent;
  const harness = agent?.harness ?? env.harness;
  const runtime = agent?.runtime ?? env.runtime;
  const { id: harnessId, ...harnessOptions } = harness ?? {};
  return {
    ...(id !== undefined ? { id } : {}),
    args,
    ...(harnessId !== undefined ? { harness: harnessId } : {}),
    harnessOptions,
    ...(runtime ? { runtime: runtime.type } : {}),
    limits: {
      ...(agent?.max_turns !== undefined ? { maxTurns: agent.max_turns } : {}),
      ...(agent?.timeout !== undefined ? { timeSeconds: agent.timeout } : {}),
      ...(agent?.max_output_tokens !== undefined ? { maxCompletionTokens: agent.max_output_tokens } : {}),
    },
  };
}
