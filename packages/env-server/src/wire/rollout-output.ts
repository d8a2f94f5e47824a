/**
 * A vf rollout as verifiers v0's `RolloutOutput` (what `run_rollout`/`run_group` answer, verifiers'
 * `state_to_output` at a60a606ec), and back to vf's saved row. The output carries verifiers' keys:
 * `timing` as `RolloutTiming` (phase spans in epoch seconds), metrics also flattened to top-level
 * keys, `answer`/`info` only when non-empty, `error_chain`/`long_error_chain` beside `error`,
 * requested state columns at the top level, and `trajectory` (verifiers' `TrajectoryStep`: prompt,
 * completion, response, tokens with masks) only when "trajectory" is one of them. vf's own fields
 * ride along (`rollout_index`, `task`, `scoring_errors`, `advantage`), so vf's client reads the
 * row back whole.
 */
import type { Message } from "@vf-rl/core";
import {
  ErrorData,
  RolloutRecord,
  type RolloutTiming,
  ScoringError,
  type TrajectoryStep,
} from "@vf-rl/core/results";
import { z } from "zod";
import type { FinishedRollout } from "../server/run-rollouts.ts";

/** The state column that asks for verifiers' per-turn trajectory. */
export const TRAJECTORY_COLUMN = "trajectory";

/** Builds the `RolloutOutput` of one finished rollout. */
export function toRolloutOutput(
  rollout: FinishedRollout,
  stateColumns: readonly string[],
): Record<string, unknown> {
  const { record, state } = rollout;
  const output: Record<string, unknown> = {
    example_id: record.example_id,
    rollout_index: record.rollout_index,
    task: record.task,
    prompt: record.prompt,
    completion: record.completion,
    reward: record.reward,
    advantage: state.advantage,
    error: record.error,
    scoring_errors: record.scoring_errors,
    timing: verifiersTiming(rollout),
    is_completed: record.is_completed,
    is_truncated: record.is_truncated,
    stop_condition: record.stop_condition,
    metrics: record.metrics,
    tool_defs: record.tool_defs ?? null,
    token_usage: record.token_usage,
  };
  if (record.answer) output.answer = record.answer;
  if (Object.keys(record.info).length > 0) output.info = record.info;
  if (record.error) {
    output.error_chain = record.error.error_chain_repr ?? null;
    output.long_error_chain = record.error.error_chain_str ?? null;
  }
  for (const [name, value] of Object.entries(record.metrics)) if (!(name in output)) output[name] = value;
  for (const column of stateColumns) {
    output[column] = column === TRAJECTORY_COLUMN ? trajectorySteps(rollout) : record.state?.[column];
  }
  return output;
}

function verifiersTiming(rollout: FinishedRollout): Record<string, unknown> {
  const t = rollout.state.times;
  const start = t.startMs / 1000;
  const span = (from: number, ms: number) => ({ start: from, end: from + ms / 1000, duration: ms / 1000 });
  const setup = span(start, t.setupMs);
  const generation = span(setup.end, t.generationMs);
  const scoring = span(generation.end, t.scoringMs);
  const modelSpans = modelCallTimes(rollout).map((call) => ({
    start: call.startMs / 1000,
    end: call.endMs / 1000,
    duration: (call.endMs - call.startMs) / 1000,
  }));
  const total = scoring.end - generation.start;
  return {
    start_time: start,
    setup,
    generation,
    scoring,
    model: { spans: modelSpans, duration: t.modelMs / 1000 },
    env: { spans: [], duration: t.envMs / 1000 },
    total,
    overhead: total - (t.setupMs + t.modelMs + t.envMs + t.scoringMs) / 1000,
  };
}

/**
 * When each model call was sent and answered, in epoch ms: an agent's as its trace records them
 * (its calls reach the model through the interception server), else as the server recorded them.
 */
function modelCallTimes(rollout: FinishedRollout): Array<{ startMs: number; endMs: number }> {
  const agent = rollout.state.trace;
  if (agent) return agent.calls.map((call) => ({ startMs: call.start, endMs: call.end }));
  return rollout.calls;
}

/** verifiers' `TrajectoryStep` list: one per model turn, tokens with prompt and completion masks. */
function trajectorySteps(rollout: FinishedRollout): unknown[] {
  const { state } = rollout;
  // An agent's turns are its trace's answered calls, in order.
  const answered = state.trace?.calls.filter((call) => call.reply !== null);
  return state.turns.map((turn, i) => {
    const response = turn.response;
    const truncated = response.finishReason === "length";
    const tokens = response.tokens;
    const endMs =
      answered?.[i]?.end ?? rollout.calls.find((c) => c.response === response)?.endMs ?? state.times.startMs;
    return {
      prompt: turn.prompt,
      completion: [turn.completion],
      response: {
        id: response.id,
        created: Math.floor(endMs / 1000),
        model: response.model,
        usage: {
          prompt_tokens: response.usage.promptTokens,
          reasoning_tokens: 0,
          completion_tokens: response.usage.completionTokens,
          total_tokens: response.usage.promptTokens + response.usage.completionTokens,
        },
        message: {
          ...turn.completion,
          finish_reason: response.finishReason,
          is_truncated: truncated,
          tokens: null,
        },
      },
      tokens: tokens && {
        prompt_ids: tokens.promptIds,
        prompt_mask: tokens.promptIds.map(() => 0),
        completion_ids: tokens.completionIds,
        completion_mask: tokens.completionIds.map(() => 1),
        completion_logprobs: tokens.completionLogprobs,
        overlong_prompt: false,
        is_truncated: truncated,
        routed_experts: null,
      },
      reward: null,
      advantage: state.advantage,
      is_truncated: truncated,
      trajectory_id: `${state.exampleId}-${state.input.rolloutIndex}`,
      extras: {},
    };
  });
}

const Span = z.object({ duration: z.number() }).loose();
const StepIn = z
  .object({
    is_truncated: z.boolean().default(false),
    response: z
      .object({ message: z.object({ finish_reason: z.string().nullish() }).loose() })
      .loose()
      .nullish(),
    tokens: z
      .object({
        prompt_ids: z.array(z.number()),
        completion_ids: z.array(z.number()),
        completion_logprobs: z.array(z.number()),
      })
      .loose()
      .nullish(),
  })
  .loose();

/** The fields of a `RolloutOutput` vf reads back (verifiers' own or vf's extras). */
const RolloutOutputIn = z
  .object({
    example_id: z.number().int(),
    rollout_index: z.number().int().default(0),
    task: z.string().default("default"),
    prompt: z.array(z.unknown()).nullish(),
    completion: z.array(z.unknown()).nullish(),
    answer: z.string().default(""),
    info: z.record(z.string(), z.unknown()).default({}),
    reward: z.number(),
    metrics: z.record(z.string(), z.number()).default({}),
    error: ErrorData.nullish(),
    scoring_errors: z.array(ScoringError).default([]),
    is_completed: z.boolean().default(true),
    is_truncated: z.boolean().default(false),
    stop_condition: z.string().nullish(),
    timing: z
      .object({
        start_time: z.number(),
        setup: Span,
        generation: Span,
        scoring: Span,
        model: Span,
        env: Span,
      })
      .loose()
      .nullish(),
    token_usage: z.record(z.string(), z.number()).nullish(),
    tool_defs: z.array(z.unknown()).nullish(),
    trajectory: z.array(StepIn).nullish(),
  })
  .loose();

/** Reads a `RolloutOutput` back into vf's saved row; `stateColumns` are the extra columns asked for. */
export function fromRolloutOutput(raw: unknown, stateColumns: readonly string[]): RolloutRecord {
  const out = RolloutOutputIn.parse(raw);
  const ms = (span: { duration: number }) => span.duration * 1000;
  const timing: RolloutTiming | undefined = out.timing
    ? {
        start_time: out.timing.start_time,
        setup_ms: ms(out.timing.setup),
        generation_ms: ms(out.timing.generation),
        model_ms: ms(out.timing.model),
        env_ms: ms(out.timing.env),
        scoring_ms: ms(out.timing.scoring),
        total_ms: ms(out.timing.setup) + ms(out.timing.generation) + ms(out.timing.scoring),
      }
    : undefined;
  const trajectory: TrajectoryStep[] = (out.trajectory ?? []).map((step) => ({
    finish_reason: step.response?.message.finish_reason ?? null,
    is_truncated: step.is_truncated,
    tokens: step.tokens
      ? {
          prompt_ids: step.tokens.prompt_ids,
          completion_ids: step.tokens.completion_ids,
          completion_logprobs: step.tokens.completion_logprobs,
        }
      : null,
  }));
  const state: Record<string, unknown> = {};
  const record = out as Record<string, unknown>;
  for (const column of stateColumns) if (column !== TRAJECTORY_COLUMN) state[column] = record[column];
  return RolloutRecord.parse({
    example_id: out.example_id,
    rollout_index: out.rollout_index,
    prompt: (out.prompt ?? []) as Message[],
    completion: (out.completion ?? []) as Message[],
    answer: out.answer,
    info: out.info,
    task: out.task,
    reward: out.reward,
    metrics: out.metrics,
    error: out.error ?? null,
    scoring_errors: out.scoring_errors,
    is_completed: out.is_completed,
    is_truncated: out.is_truncated,
    stop_condition: out.stop_condition ?? null,
    ...(timing ? { timing } : {}),
    ...(out.token_usage ? { token_usage: out.token_usage } : {}),
    ...(out.tool_defs ? { tool_defs: out.tool_defs } : {}),
    trajectory,
    ...(stateColumns.some((c) => c !== TRAJECTORY_COLUMN) ? { state } : {}),
  });
}
