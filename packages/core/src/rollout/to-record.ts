/** Turns a finished, scored rollout state into the row saved in results.jsonl. */
import { UserError } from "../errors.ts";
import type { RolloutRecord, TrajectoryStep } from "../records/rollout-record.ts";
import { type RolloutState, usageOf } from "./rollout-state.ts";
import { stateValue } from "./state-value.ts";

export interface ToRecordOptions {
  /** Keys of `state.data` (or of the state itself) copied to the row's `state`; must be JSON. */
  stateColumns?: string[];
}

export function toRecord<Data>(state: RolloutState<Data>, options: ToRecordOptions = {}): RolloutRecord {
  const turns = state.turns;
  const last = turns[turns.length - 1];
  const usage = usageOf(state);
  const trajectory: TrajectoryStep[] = turns.map((turn) => ({
    finish_reason: turn.response.finishReason,
    is_truncated: turn.response.finishReason === "length",
    tokens: turn.response.tokens && {
      prompt_ids: turn.response.tokens.promptIds,
      completion_ids: turn.response.tokens.completionIds,
      completion_logprobs: turn.response.tokens.completionLogprobs,
    },
  }));
  const t = state.times;
  const record: RolloutRecord = {
    example_id: state.exampleId,
    rollout_index: state.input.rolloutIndex,
    prompt: state.prompt,
    completion: state.completion,
    answer: state.answer,
    info: state.info,
    task: state.task,
    reward: state.reward,
    metrics: state.metrics,
    error: state.error,
    scoring_errors: state.scoringErrors,
    is_completed: state.isCompleted,
    is_truncated: state.isTruncated,
    stop_condition: state.stopCondition,
    timing: {
      start_time: t.startMs / 1000,
      setup_ms: t.setupMs,
      generation_ms: t.generationMs,
      model_ms: t.modelMs,
      env_ms: t.envMs,
      scoring_ms: t.scoringMs,
      total_ms: t.setupMs + t.generationMs + t.scoringMs,
    },
    token_usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      final_input_tokens: last?.response.usage.promptTokens ?? 0,
      final_output_tokens: last?.response.usage.completionTokens ?? 0,
    },
    trajectory,
  };
  if (state.toolDefs.length > 0) record.tool_defs = state.toolDefs;
  if (options.stateColumns?.length) record.state = stateColumns(state, options.stateColumns);
  if (state.trace) record.trace = state.trace;
  return record;
}

function stateColumns<Data>(state: RolloutState<Data>, columns: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = stateValue(state, column);
    try {
      JSON.stringify(value);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new UserError(
        `state column "${column}" cannot be saved as JSON (${detail}): drop it from the state columns`,
      );
    }
    out[column] = value;
  }
  return out;
}
