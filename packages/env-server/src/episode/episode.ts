/**
 * verifiers v1's `Episode` and `Trace` (verifiers/v1/{episode,trace}.py at a60a606ec) as vf's
 * server sends them: the fields a Python `WireEpisode` validates, filled from one vf rollout.
 * Times are epoch seconds. Fields left at verifiers' defaults (empty rewrites, no runtime, null
 * tensors) are sent as such.
 */
import type { MessageNode as GraphNode } from "@vf-rl/core/agents";
import type { V1Message } from "../wire/wire-messages.ts";

/** verifiers' `MessageNode` as sent: core's message-graph node, its message in v1's shape. */
export type MessageNode = Omit<GraphNode, "message"> & { message: V1Message };

export interface TimeSpan {
  start: number;
  end: number;
}

export interface TraceError {
  type: string;
  message: string;
  status_code: number | null;
  traceback: string | null;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_input_tokens: number | null;
  reasoning_tokens: number | null;
  cost: number | null;
}

/** `ModelCall`: one model call, linked to the assistant node it committed. */
export interface ModelCall {
  node: number | null;
  model: string | null;
  sampling: Record<string, unknown> | null;
  endpoint: string | null;
  finish_reason: "stop" | "length" | "tool_calls" | null;
  usage: Usage | null;
  time: TimeSpan;
  error: TraceError | null;
  policy: null;
}

export interface TraceTask {
  type: string;
  data: Record<string, unknown>;
  key: string | null;
  hash: string | null;
}

export interface Timing {
  start: number;
  boot: TimeSpan;
  setup: TimeSpan;
  agent: TimeSpan & { model: { duration: number }; harness: { duration: number } };
  finalize: TimeSpan;
  scoring: TimeSpan;
}

export interface Trace {
  version: 1;
  id: string;
  verifiers: { version: string; commit: string | null };
  task: TraceTask;
  agent: {
    /** The run's model and sampling; for agents also the harness (verifiers' `AgentConfig.harness`). */
    config: { model: string; sampling: Record<string, unknown>; harness?: { id: string } };
    runtime: null;
    name: string;
    trainable: boolean;
  };
  tools: Array<{ name: string; description: string; parameters: Record<string, unknown>; strict?: boolean }>;
  nodes: MessageNode[];
  calls: ModelCall[];
  request_rewrites: [];
  response_rewrites: [];
  rewards: Record<string, { score: number; weight: number } | null>;
  metrics: Record<string, number | null>;
  info: Record<string, unknown>;
  extra_usage: Usage[];
  is_completed: boolean;
  ok: boolean;
  stop_condition: string | null;
  errors: TraceError[];
  timing: Timing;
}

export interface Episode {
  id: string;
  env: { id: string; name: string | null };
  task: TraceTask;
  group: null;
  run: null;
  ok: boolean;
  errors: TraceError[];
  traces: Trace[];
}
