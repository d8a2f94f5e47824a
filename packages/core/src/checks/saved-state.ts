/**
 * A rollout's state rebuilt from its saved row, for scoring it again without the model: the
 * prompt, completion, answer, info and task as saved, the turns as far as the row tells them (each
 * assistant message with its finish reason and tokens), the agent's trace when there is one, and
 * for `state.data` only the state columns the run saved (`-C`). Reading any other key of
 * `state.data` throws `UnsavedStateError`, which the rubric records against that function: a
 * reward that needs what was not saved is reported, not scored on a guess.
 */
import type { AgentTrace } from "../agents/agent-trace.ts";
import type { FinishReason } from "../client/model-client.ts";
import type { AssistantMessage } from "../messages/message.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import { createState, type RolloutState, type TurnRecord } from "../rollout/rollout-state.ts";
import { UnsavedStateError } from "./check-errors.ts";

/** The state of a saved rollout, ready to be scored; see the file comment. */
export function stateFromRecord<Data>(record: RolloutRecord, model: string): RolloutState<Data> {
  const input = {
    exampleId: record.example_id,
    rolloutIndex: record.rollout_index,
    prompt: record.prompt,
    answer: record.answer,
    info: record.info,
    task: record.task,
  };
  const state = createState<Data>(input, {
    model,
    sampling: {},
    toolDefs: record.tool_defs ?? [],
    signal: new AbortController().signal,
    data: savedData(record.state ?? {}) as Data,
  });
  state.completion = record.completion;
  state.turns = savedTurns(record, model);
  state.isCompleted = record.is_completed;
  state.isTruncated = record.is_truncated;
  state.stopCondition = record.stop_condition;
  state.error = record.error;
  // A rollout that failed before its first turn never began: generate scored it 0 without the rubric.
  state.begun = !(record.error !== null && record.completion.length === 0 && record.trajectory.length === 0);
  if (record.trace) state.trace = record.trace as unknown as AgentTrace;
  return state;
}

/** Keys every object answers that are not state (promise checks, JSON, inspection). */
const NOT_STATE = new Set(["then", "toJSON", "constructor", "inspect", "asymmetricMatch", "$$typeof"]);

/** The saved state columns as `state.data`; any other key read throws `UnsavedStateError`. */
function savedData(columns: Record<string, unknown>): Record<string, unknown> {
  return new Proxy(
    { ...columns },
    {
      get(target, key, receiver) {
        if (typeof key === "symbol" || key in target || NOT_STATE.has(key)) {
          return Reflect.get(target, key, receiver);
        }
        throw new UnsavedStateError(key);
      },
    },
  );
}

/** A turn per assistant message of the completion, with what the row kept of the model's answer. */
function savedTurns(record: RolloutRecord, model: string): TurnRecord[] {
  const turns: TurnRecord[] = [];
  record.completion.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const step = record.trajectory[turns.length];
    const tokens = step?.tokens ?? null;
    turns.push({
      prompt: [...record.prompt, ...record.completion.slice(0, index)],
      completion: message as AssistantMessage,
      response: {
        id: "",
        model,
        message: message as AssistantMessage,
        finishReason: (step?.finish_reason ?? "stop") as FinishReason,
        // Per-turn usage is not saved (only the run's totals); token counts are, where the server gave them.
        usage: {
          promptTokens: tokens?.prompt_ids.length ?? 0,
          completionTokens: tokens?.completion_ids.length ?? 0,
        },
        tokens: tokens && {
          promptIds: tokens.prompt_ids,
          completionIds: tokens.completion_ids,
          completionLogprobs: tokens.completion_logprobs,
        },
      },
    });
  });
  return turns;
}
