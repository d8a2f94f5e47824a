/**
 * The conversation part of a v1 trace: the message graph (`nodes`, core's `MessageGraph`, vf's
 * message shape), one `ModelCall` per model call linked to the node it committed, and the tools
 * offered. Two sources give it: an agent's trace, whose graph the interception server built as the
 * calls happened (`agentGraph`), and a vf rollout's turns with the calls the env server recorded,
 * committed here by the same rules (`turnGraph`). build-episode.ts writes either one in v1's shape.
 */
import type { RolloutState } from "@vf-rl/core";
import { type AgentTrace, MessageGraph, type MessageNode } from "@vf-rl/core/agents";
import type { ModelResponse } from "@vf-rl/core/client";
import type { ModelCallRecord } from "../server/call-recorder.ts";
import type { FinishedRollout } from "../server/run-rollouts.ts";
import { describeError } from "../wire/wire-error.ts";
import type { ModelCall, TraceError, Usage } from "./episode.ts";

/** The endpoint path every call reaches: the env server calls models over chat completions. */
const ENDPOINT = "/chat/completions";

/** A trace's graph, calls and tools; see the file comment. */
export interface TraceGraph {
  /** The message graph, messages in vf's shape. */
  nodes: MessageNode[];
  calls: ModelCall[];
  tools: RolloutState<unknown>["toolDefs"];
}

/**
 * An agent's trace as it is: its graph, and its calls (each made to `model`, whatever name the
 * agent asked for, with the sampling the server sent: `recorded` holds what the server's client
 * added, vLLM's token fields for a train client); the tools are those of the last call that
 * offered any, as v1 records them.
 */
export function agentGraph(trace: AgentTrace, model: string, recorded: ModelCallRecord[]): TraceGraph {
  const calls = trace.calls.map(
    (call): ModelCall => ({
      node: call.node,
      model,
      sampling:
        recorded.find((record) => call.reply !== null && record.response?.message === call.reply)?.sampling ??
        call.sampling,
      endpoint: ENDPOINT,
      finish_reason: finishReason(call.finishReason),
      usage: call.usage && usage(call.usage),
      time: { start: call.start / 1000, end: call.end / 1000 },
      error: call.error === null ? null : agentCallError(trace, call.error),
      policy: null,
    }),
  );
  const tools = trace.calls.findLast((call) => call.tools.length > 0)?.tools ?? [];
  return { nodes: trace.nodes, calls, tools };
}

/** A failed agent call's error, typed as the trace's error list types it (else a provider error). */
function agentCallError(trace: AgentTrace, message: string): TraceError {
  const listed = trace.errors.find((error) => error.message.endsWith(`: ${message}`));
  return { type: listed?.type ?? "ProviderError", message, status_code: null, traceback: null };
}

/**
 * A vf rollout's turns committed to a graph (each turn's prompt, its answer and its tokens), then
 * the messages no call saw (the last environment reply); the calls the server recorded, each linked
 * to the node its answer committed.
 */
export function turnGraph(rollout: FinishedRollout): TraceGraph {
  const { state } = rollout;
  const graph = new MessageGraph();
  const assistantNode = new Map<ModelResponse, number>();
  for (const turn of state.turns) {
    const call = rollout.calls.find((c) => c.response === turn.response);
    const node = graph.commitTurn({
      prompt: turn.prompt,
      completion: turn.completion,
      tokens: turn.response.tokens,
      timestamp: (call?.endMs ?? state.times.startMs) / 1000,
    });
    assistantNode.set(turn.response, node);
  }
  graph.commitConversation([...state.prompt, ...state.completion], Date.now() / 1000);
  return { nodes: graph.nodes, calls: recordedCalls(rollout, assistantNode), tools: state.toolDefs };
}

function recordedCalls(rollout: FinishedRollout, nodes: Map<ModelResponse, number>): ModelCall[] {
  const calls: ModelCall[] = rollout.calls.map((call) => {
    const response = call.response;
    const failure = call.error === undefined ? null : callError(call.error);
    return {
      node: response ? (nodes.get(response) ?? null) : null,
      model: response?.model || call.model,
      sampling: call.sampling,
      endpoint: ENDPOINT,
      finish_reason: response ? finishReason(response.finishReason) : null,
      usage: response ? usage(response.usage) : null,
      time: { start: call.startMs / 1000, end: call.endMs / 1000 },
      error: failure,
      policy: null,
    };
  });
  // An environment that does not pass its rollout's signal to the client: its turns still count.
  const state: RolloutState<unknown> = rollout.state;
  for (const turn of state.turns) {
    if (rollout.calls.some((call) => call.response === turn.response)) continue;
    calls.push({
      node: nodes.get(turn.response) ?? null,
      model: turn.response.model || state.model,
      sampling: state.sampling,
      endpoint: ENDPOINT,
      finish_reason: finishReason(turn.response.finishReason),
      usage: usage(turn.response.usage),
      time: { start: 0, end: 0 },
      error: null,
      policy: null,
    });
  }
  return calls;
}

function callError(error: unknown): TraceError {
  const { type, message } = describeError(error);
  const status = (error as { status?: unknown }).status;
  return { type, message, status_code: typeof status === "number" ? status : null, traceback: null };
}

/** v1's normalized finish reasons; any other is null. */
function finishReason(reason: string | null): ModelCall["finish_reason"] {
  return reason === "stop" || reason === "length" || reason === "tool_calls" ? reason : null;
}

function usage(counts: { promptTokens: number; completionTokens: number }): Usage {
  return {
    prompt_tokens: counts.promptTokens,
    completion_tokens: counts.completionTokens,
    cached_input_tokens: null,
    reasoning_tokens: null,
    cost: null,
  };
}
