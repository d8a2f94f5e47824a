/**
 * One rollout as saved in results.jsonl (one JSON object a line), with verifiers' field names so
 * tools of either ecosystem read both. Each metric is also flattened to a top-level key on disk.
 */
import { z } from "zod";
import { Message } from "../messages/message.ts";
import { ToolDefinition } from "../tools/tool.ts";

/** An error recorded on a rollout: its class name, message and the chain of causes. */
export const ErrorData = z.object({
  error: z.string(),
  message: z.string(),
  error_chain_repr: z.string().optional(),
  error_chain_str: z.string().optional(),
});
export type ErrorData = z.infer<typeof ErrorData>;

/** A reward or metric function that raised; it scored 0 and is counted, never silent. */
export const ScoringError = z.object({ function: z.string(), error: ErrorData });
export type ScoringError = z.infer<typeof ScoringError>;

/** Token ids and sampler logprobs of one model turn (the fields vLLM returns). */
export const TrajectoryStepTokens = z.object({
  prompt_ids: z.array(z.number().int()),
  completion_ids: z.array(z.number().int()),
  completion_logprobs: z.array(z.number()),
});
export type TrajectoryStepTokens = z.infer<typeof TrajectoryStepTokens>;

/** One model turn of a rollout. */
export const TrajectoryStep = z.object({
  finish_reason: z.string().nullable(),
  is_truncated: z.boolean(),
  /** Null when the server returned no token ids. */
  tokens: TrajectoryStepTokens.nullable(),
});
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;

/** Milliseconds spent in each phase of a rollout; `start_time` is epoch seconds. */
export const RolloutTiming = z.object({
  start_time: z.number(),
  setup_ms: z.number(),
  generation_ms: z.number(),
  model_ms: z.number(),
  env_ms: z.number(),
  scoring_ms: z.number(),
  total_ms: z.number(),
});
export type RolloutTiming = z.infer<typeof RolloutTiming>;

export const TokenUsage = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  /** Prompt and completion tokens of the last turn only (the final context size). */
  final_input_tokens: z.number().optional(),
  final_output_tokens: z.number().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/**
 * The trace of an agent program's rollout (core/agents' `AgentTrace`), kept whole on its row: every
 * model call, the message graph, the tool results the host rewrote, how the run ended. Rows of
 * environments' own rollouts have none. The calls and nodes are checked as lists only: their shape
 * is core/agents', which reads them back.
 */
export const AgentTraceRecord = z.object({
  calls: z.array(z.unknown()),
  nodes: z.array(z.unknown()),
  toolResults: z.array(z.unknown()).default([]),
  stop: z.string(),
  errors: z.array(z.object({ type: z.string(), message: z.string() })).default([]),
  exitCode: z.number().int().nullable(),
  output: z.string().default(""),
});
export type AgentTraceRecord = z.infer<typeof AgentTraceRecord>;

/** One rollout as a line of results.jsonl, in verifiers' field names (readers of either ecosystem share it). */
export const RolloutRecord = z.object({
  /** Row of the dataset; the same for every rollout of that row, groups are keyed by it. */
  example_id: z.number().int(),
  /** Which rollout of its example this is, 0..r-1. */
  rollout_index: z.number().int().default(0),
  prompt: z.array(Message),
  completion: z.array(Message),
  answer: z.string().default(""),
  info: z.record(z.string(), z.unknown()).default({}),
  task: z.string().default("default"),
  reward: z.number(),
  /** Every reward function and metric by name, raw (unweighted). */
  metrics: z.record(z.string(), z.number()).default({}),
  error: ErrorData.nullable().default(null),
  scoring_errors: z.array(ScoringError).default([]),
  is_completed: z.boolean().default(true),
  is_truncated: z.boolean().default(false),
  stop_condition: z.string().nullable().default(null),
  timing: RolloutTiming.optional(),
  token_usage: TokenUsage.optional(),
  tool_defs: z.array(ToolDefinition).optional(),
  trajectory: z.array(TrajectoryStep).default([]),
  /** Extra state keys the user asked for with -C/--state-columns. */
  state: z.record(z.string(), z.unknown()).optional(),
  /** The agent program's trace, on rows of agent rollouts (a taskset worked on by a harness). */
  trace: AgentTraceRecord.optional(),
});
export type RolloutRecord = z.infer<typeof RolloutRecord>;
