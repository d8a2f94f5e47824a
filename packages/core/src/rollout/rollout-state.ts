/**
 * The state of one rollout, created by the environment at the start of the rollout and passed
 * explicitly from call to call. Nothing per-rollout lives on an environment object, because
 * rollouts run concurrently. `data` holds the environment's own typed fields.
 */
import type { ModelResponse, SamplingArgs } from "../client/model-client.ts";
import type { AssistantMessage, Messages } from "../messages/message.ts";
import type { ErrorData, ScoringError } from "../results/rollout-record.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import type { Info, RolloutInput } from "./rollout-input.ts";

/** One model turn: the prompt it saw and what it answered. */
export interface TurnRecord {
  prompt: Messages;
  completion: AssistantMessage;
  response: ModelResponse;
}

export interface PhaseTimes {
  /** Epoch milliseconds when the rollout started. */
  startMs: number;
  setupMs: number;
  generationMs: number;
  modelMs: number;
  envMs: number;
  scoringMs: number;
}

/** Everything about one rollout, passed from call to call: input, completion, turns, timing, errors, rewards, and the environment's own `data`. */
export interface RolloutState<Data = Record<string, unknown>> {
  readonly input: RolloutInput;
  readonly prompt: Messages;
  readonly answer: string;
  readonly info: Info;
  readonly task: string;
  readonly exampleId: number;
  /**
   * A fresh id for this attempt of the rollout (verifiers' `trajectory_id`); a retried rollout gets a
   * new one. `vf eval` sends it as X-Session-ID so a router can keep a rollout's turns on one server.
   */
  readonly trajectoryId: string;
  /** The model this rollout samples from and its sampling arguments. */
  readonly model: string;
  readonly sampling: SamplingArgs;
  /** Tools offered to the model in this rollout (from info.tool_defs or the environment). */
  toolDefs: ToolDefinition[];
  /** The conversation after the prompt: model turns and environment responses, in order. */
  completion: Messages;
  /** One entry per model turn. */
  turns: TurnRecord[];
  isCompleted: boolean;
  isTruncated: boolean;
  /** Name of the stop condition that ended the rollout. */
  stopCondition: string | null;
  /** The error that ended the rollout, if any (errors are data). */
  error: ErrorData | null;
  /** Whether `error` is an infrastructure or invalid-response error that `maxRetries` retries. */
  retryable: boolean;
  /** Messages the environment sends after the last model turn; ends the rollout. */
  finalEnvResponse: Messages | null;
  timedOut: boolean;
  promptTooLong: boolean;
  reward: number;
  metrics: Record<string, number>;
  scoringErrors: ScoringError[];
  advantage: number | null;
  times: PhaseTimes;
  /** Judge answers cached per judge prompt, so scoring twice asks once. */
  judgeResponses: Record<string, string>;
  /** The environment's own per-rollout fields, set up by `setupState`. */
  data: Data;
  /** Aborted on cancellation or timeout; pass it to anything long-running. */
  readonly signal: AbortSignal;
}

/** Token usage summed over the turns of a rollout. */
export function usageOf(state: Pick<RolloutState<unknown>, "turns">): { input: number; output: number } {
  let input = 0;
  let output = 0;
  for (const turn of state.turns) {
    input += turn.response.usage.promptTokens;
    output += turn.response.usage.completionTokens;
  }
  return { input, output };
}
