/**
 * One finished vf rollout as a verifiers v1 `Episode` with one `Trace`: the message graph with
 * per-node token ids, sampled mask and logprobs (when the endpoint returned vLLM's token fields),
 * one `ModelCall` per model call (model, sampling, usage, finish reason, timing, error), weighted
 * rewards and metrics, the stop condition in v1's words, errors and phase timing. An agent's
 * rollout (`AgentEnv`) carries the harness's trace, whose graph and calls are taken as they are
 * (trace-graph.ts); its stop, errors and timing are read as v1 reads a harness's.
 */
import { randomUUID } from "node:crypto";
import type { Environment, RolloutState } from "@vf-rl/core";
import { AgentEnv, type AgentTrace } from "@vf-rl/core/agents";
import type { FinishedRollout } from "../server/run-rollouts.ts";
import { toV1Message } from "../wire/wire-messages.ts";
import type { Episode, Timing, Trace, TraceError, TraceTask } from "./episode.ts";
import { rewardWeights } from "./reward-weights.ts";
import { taskHash } from "./task-hash.ts";
import { agentGraph, turnGraph } from "./trace-graph.ts";

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
  const agent = state.trace;
  const graph = agent ? agentGraph(agent, options.model, rollout.calls) : turnGraph(rollout);

  const errors: TraceError[] = [];
  if (state.error) {
    errors.push({
      type: state.error.error,
      message: state.error.message,
      status_code: null,
      traceback: state.error.error_chain_str ?? null,
    });
  }
  if (agent?.stop === "timeout") {
    // verifiers v1 fails a harness that outlives its time (HarnessError), so trainers skip it.
    const limit = agent.errors.find((error) => error.type === "timeout")?.message ?? "its time limit is up";
    errors.push({
      type: "HarnessError",
      message: `agent timeout: ${limit}`,
      status_code: null,
      traceback: null,
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
  const harness = options.env instanceof AgentEnv ? options.env.harness.id : undefined;
  return {
    version: 1,
    id: randomUUID().replaceAll("-", ""),
    verifiers: { version: options.producer, commit: null },
    task: traceTask(options.taskData),
    agent: {
      config: {
        model: options.model,
        sampling: options.sampling,
        ...(harness !== undefined ? { harness: { id: harness } } : {}),
      },
      runtime: null,
      name: "agent",
      trainable: true,
    },
    tools: graph.tools.map((def) => ({
      name: def.function.name,
      description: def.function.description ?? "",
      parameters: def.function.parameters,
      ...(def.function.strict !== undefined ? { strict: def.function.strict } : {}),
    })),
    nodes: graph.nodes.map((node) => ({ ...node, message: toV1Message(node.message) })),
    calls: graph.calls,
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
        ...(agent && harness !== undefined ? { agent: agentInfo(agent, harness) } : {}),
      },
    },
    extra_usage: [],
    is_completed: state.isCompleted,
    ok: errors.length === 0,
    stop_condition: v1StopCondition(state, options.env),
    errors,
    timing: timing(rollout),
  };
}

/** Phase spans in epoch seconds; an agent's taskset scores right after the agent, inside the rollout. */
function timing(rollout: FinishedRollout): Timing {
  const times = rollout.state.times;
  const startS = times.startMs / 1000;
  const setupEnd = startS + times.setupMs / 1000;
  const agentEnd = setupEnd + times.generationMs / 1000;
  const modelS = times.modelMs / 1000;
  const scoring = rollout.state.trace
    ? { start: agentEnd, end: agentEnd + times.scoringMs / 1000 }
    : { start: rollout.scoring.startMs / 1000, end: rollout.scoring.endMs / 1000 };
  return {
    start: startS,
    boot: { start: 0, end: 0 },
    setup: { start: startS, end: setupEnd },
    agent: {
      start: setupEnd,
      end: agentEnd,
      model: { duration: Math.min(modelS, agentEnd - setupEnd) },
      harness: { duration: Math.max(0, agentEnd - setupEnd - modelS) },
    },
    finalize: { start: 0, end: 0 },
    scoring,
  };
}

/** What v1's trace has no field for: the harness, how its program ended, what the trace noted. */
function agentInfo(trace: AgentTrace, harness: string): Record<string, unknown> {
  return {
    harness,
    exit_code: trace.exitCode,
    output: trace.output,
    errors: trace.errors,
    tool_results: trace.toolResults,
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
  if (state.trace) return AGENT_STOPS[state.trace.stop];
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

/**
 * An agent's stops in v1's words: its harness's time limit is a failure in v1 (a HarnessError, see
 * the trace's errors), its token budget is `max_output_tokens`; the others are v1's own.
 */
const AGENT_STOPS: Record<AgentTrace["stop"], string> = {
  agent_completed: "agent_completed",
  max_turns: "max_turns",
  max_completion_tokens: "max_output_tokens",
  context_length: "context_length",
  timeout: "error",
  error: "error",
  cancelled: "cancelled",
};

/** Weighted rewards and unweighted metrics; a function that raised reads null in both. */
function scores(
  state: RolloutState<unknown>,
  env: { rubric: unknown },
  raised: Set<string>,
): Pick<Trace, "rewards" | "metrics"> {
  if (env instanceof AgentEnv && (state.data as { score?: unknown } | null)?.score == null) {
    // The taskset never scored (a failed score, or an agent that never ran): no reward, as in v1.
    return { rewards: { reward: null }, metrics: {} };
  }
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
