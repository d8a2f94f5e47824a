/**
 * One finished vf rollout as a verifiers v1 `Episode` with one `Trace`: the message graph with
 * per-node token ids, sampled mask and logprobs (when the endpoint returned vLLM's token fields),
 * one `ModelCall` per model call (model, sampling, usage, finish reason, timing, error), weighted
 * rewards and metrics, the stop condition in v1's words, errors and phase timing.
 */
import { randomUUID } from "node:crypto";
import type { Environment, RolloutState } from "@vf-rl/core";
import { MessageGraph } from "@vf-rl/core/agents";
import type { ModelResponse } from "@vf-rl/core/client";
import type { FinishedRollout } from "../server/run-rollouts.ts";
import { describeError } from "../wire/wire-error.ts";
import { toV1Message } from "../wire/wire-messages.ts";
import type { Episode, ModelCall, Trace, TraceError, TraceTask, Usage } from "./episode.ts";
import { rewardWeights } from "./reward-weights.ts";
import { taskHash } from "./task-hash.ts";

/** What an episode is built from besides the rollout. */
export interface BuildEpisodeOptions {
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  /** The id the environment was loaded by (a Hub package's with its owner): the episode's `env.id`. */
  envId: string;
  /** The task data as the request sent it (recorded on the trace as dispatched). */
  taskData: Record<string, unknown>;
  model: string;
  sampling: Record<string, unknown>;
  /** What produced the trace, for `Trace.verifiers`. */
  producer: string;
}

/** The task as a trace records it. */
export function traceTask(taskData: Record<string, unknown>): TraceTask {
  const hash = taskHash(taskData);
  return { type: "VfTask", data: taskData, key: hash, hash };
}

/** Builds the episode of one finished rollout; see the file comment. */
export function buildEpisode(rollout: FinishedRollout, options: BuildEpisodeOptions): Episode {
  const trace = buildTrace(rollout, options);
  return {
    id: randomUUID().replaceAll("-", ""),
    env: { id: options.envId, name: null },
    task: trace.task,
    group: null,
    run: null,
    ok: trace.ok,
    errors: [],
    traces: [trace],
  };
}

function buildTrace(rollout: FinishedRollout, options: BuildEpisodeOptions): Trace {
  const { state, record } = rollout;
  const startS = state.times.startMs / 1000;
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

  const errors: TraceError[] = [];
  if (state.error) {
    errors.push({
      type: state.error.error,
      message: state.error.message,
      status_code: null,
      traceback: state.error.error_chain_str ?? null,
    });
  }
  for (const failure of state.scoringErrors) {
    errors.push({
      type: "ScoringError",
      message: `"${failure.function}" raised ${failure.error.error}: ${failure.error.message}`,
      status_code: null,
      traceback: null,
    });
  }
  const { rewards, metrics } = scores(
    state,
    options.env,
    new Set(state.scoringErrors.map((e) => e.function)),
  );
  const setupEnd = startS + state.times.setupMs / 1000;
  const agentEnd = setupEnd + state.times.generationMs / 1000;
  const modelS = state.times.modelMs / 1000;
  return {
    version: 1,
    id: randomUUID().replaceAll("-", ""),
    verifiers: { version: options.producer, commit: null },
    task: traceTask(options.taskData),
    agent: {
      config: { model: options.model, sampling: options.sampling },
      runtime: null,
      name: "agent",
      trainable: true,
    },
    tools: state.toolDefs.map((def) => ({
      name: def.function.name,
      description: def.function.description ?? "",
      parameters: def.function.parameters,
      ...(def.function.strict !== undefined ? { strict: def.function.strict } : {}),
    })),
    nodes: graph.nodes.map((node) => ({ ...node, message: toV1Message(node.message) })),
    calls: modelCalls(rollout, assistantNode),
    request_rewrites: [],
    response_rewrites: [],
    rewards,
    metrics,
    info: {
      vf: {
        example_id: record.example_id,
        rollout_index: record.rollout_index,
        stop_condition: state.stopCondition,
        is_truncated: state.isTruncated,
        timed_out: state.timedOut,
      },
    },
    extra_usage: [],
    is_completed: state.isCompleted,
    ok: errors.length === 0,
    stop_condition: v1StopCondition(state, options.env),
    errors,
    timing: {
      start: startS,
      boot: { start: 0, end: 0 },
      setup: { start: startS, end: setupEnd },
      agent: {
        start: setupEnd,
        end: agentEnd,
        model: { duration: modelS },
        harness: { duration: Math.max(0, agentEnd - setupEnd - modelS) },
      },
      finalize: { start: 0, end: 0 },
      scoring: { start: rollout.scoring.startMs / 1000, end: rollout.scoring.endMs / 1000 },
    },
  };
}

/**
 * vf's stop conditions in verifiers v1's words where v1 has one, since trainers read some of them
 * (`max_turns`, `max_output_tokens` and `context_length` mark a trace truncated): an error is
 * "error", the end of a single-turn answer or of a tool loop is "agent_completed". Others keep
 * their vf name (v1 allows any stop predicate's name); `info.vf.stop_condition` keeps vf's.
 */
export function v1StopCondition(state: RolloutState<unknown>, env: unknown): string | null {
  if (state.error) return "error";
  switch (state.stopCondition) {
    case "has_error":
      return "error";
    case "prompt_too_long":
      return "context_length";
    case "max_total_completion_tokens_reached":
      return "max_output_tokens";
    case "no_tools_called":
      return "agent_completed";
    case "max_turns_reached":
      return (env as { maxTurns?: number }).maxTurns === 1 ? "agent_completed" : "max_turns";
    default:
      return state.stopCondition;
  }
}

/** Weighted rewards and unweighted metrics; a function that raised reads null in both. */
function scores(
  state: RolloutState<unknown>,
  env: { rubric: unknown },
  raised: Set<string>,
): Pick<Trace, "rewards" | "metrics"> {
  const weights = rewardWeights(env.rubric);
  const rewards: Trace["rewards"] = {};
  const metrics: Trace["metrics"] = {};
  let sum = 0;
  for (const [name, value] of Object.entries(state.metrics)) {
    const weight = weights?.get(name) ?? 0;
    if (weight !== 0) {
      rewards[name] = raised.has(name) ? null : { score: value, weight };
      sum += value * weight;
    } else {
      metrics[name] = raised.has(name) ? null : value;
    }
  }
  // A scorer whose weights cannot be read (or do not add up to the reward) reports the reward whole.
  if (!weights || Math.abs(sum - state.reward) > 1e-9 * Math.max(1, Math.abs(state.reward))) {
    return { rewards: { reward: { score: state.reward, weight: 1 } }, metrics: { ...state.metrics } };
  }
  return { rewards, metrics };
}

function modelCalls(rollout: FinishedRollout, nodes: Map<ModelResponse, number>): ModelCall[] {
  const calls: ModelCall[] = rollout.calls.map((call) => {
    const response = call.response;
    const failure = call.error === undefined ? null : callError(call.error);
    return {
      node: response ? (nodes.get(response) ?? null) : null,
      model: response?.model || call.model,
      sampling: call.sampling,
      endpoint: "/chat/completions",
      finish_reason: response ? finishReason(response) : null,
      usage: response ? usage(response) : null,
      time: { start: call.startMs / 1000, end: call.endMs / 1000 },
      error: failure,
      policy: null,
    };
  });
  // An environment that does not pass its rollout's signal to the client: its turns still count.
  for (const turn of rollout.state.turns) {
    if (rollout.calls.some((call) => call.response === turn.response)) continue;
    calls.push({
      node: nodes.get(turn.response) ?? null,
      model: turn.response.model || rollout.state.model,
      sampling: rollout.state.sampling,
      endpoint: "/chat/completions",
      finish_reason: finishReason(turn.response),
      usage: usage(turn.response),
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

function finishReason(response: ModelResponse): ModelCall["finish_reason"] {
  const reason = response.finishReason;
  return reason === "stop" || reason === "length" || reason === "tool_calls" ? reason : null;
}

function usage(response: ModelResponse): Usage {
  return {
    prompt_tokens: response.usage.promptTokens,
    completion_tokens: response.usage.completionTokens,
    cached_input_tokens: null,
    reasoning_tokens: null,
    cost: null,
  };
}
