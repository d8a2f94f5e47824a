/**
 * One rollout's state and what makes and changes it: the input it starts from (a dataset row after
 * normalisation: the prompt is always messages, `info` always an object, `example_id` always set),
 * the state the environment creates at the start and passes explicitly from call to call, the error
 * recorded when it fails, and its token usage. Nothing per-rollout lives on an environment object,
 * because rollouts run concurrently. `data` holds the environment's own typed fields.
 * The row saved to results.jsonl is made from a finished state in `to-record.ts`.
 */
import { randomUUID } from "node:crypto";
import type { AgentTrace } from "../agents/agent-trace.ts";
import type { ModelResponse, SamplingArgs } from "../client/model-client.ts";
import { errorChain, isRetryable } from "../errors.ts";
import type { AssistantMessage, Messages } from "../messages/message.ts";
import type { ErrorData, ScoringError } from "../records/rollout-record.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** Free-form per-row data handed to rewards and environments. */
export type Info = Record<string, unknown>;

/** One row as a rollout starts from it: prompt, answer, info and ids. */
export interface RolloutInput {
  /** Row of the dataset; the same for every rollout of that row. */
  exampleId: number;
  /** Which of the r rollouts of this row, 0..r-1. */
  rolloutIndex: number;
  prompt: Messages;
  answer: string;
  info: Info;
  task: string;
}

/** One model turn: the prompt it saw and what it answered. */
export interface TurnRecord {
  prompt: Messages;
  completion: AssistantMessage;
  response: ModelResponse;
}

/** Where a rollout's time went, in milliseconds, phase by phase. */
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
  /**
   * Whether the rollout began: the environment made its `data` (MultiTurnEnv's `initialData`). False
   * only for a rollout that ended before that (its initialData failed or did not finish in time, or
   * its run stopped before it started); such a rollout has no `data`, and is neither cleaned up nor
   * scored, so an environment's own code only ever meets states that have their data.
   */
  begun: boolean;
  /** The environment's own per-rollout fields, made by `initialData` before the first model turn. */
  data: Data;
  /** Aborted on cancellation or timeout; pass it to anything long-running. */
  readonly signal: AbortSignal;
  /** What the agent program did, when a harness ran the rollout (core/agents); saved on its row. */
  trace?: AgentTrace;
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

/** What `createState` needs besides the input. */
export interface CreateStateOptions<Data> {
  model: string;
  sampling: SamplingArgs;
  toolDefs: ToolDefinition[];
  signal: AbortSignal;
  /** The environment's data for the rollout; absent: a rollout that has not begun (see `begun`). */
  data?: Data;
}

/**
 * The state a rollout starts from: the input's prompt, no turns yet, the call settings and timers;
 * begun when `options.data` is given.
 */
export function createState<Data>(
  input: RolloutInput,
  options: CreateStateOptions<Data>,
): RolloutState<Data> {
  return {
    input,
    prompt: input.prompt,
    answer: input.answer,
    info: input.info,
    task: input.task,
    exampleId: input.exampleId,
    trajectoryId: randomUUID(),
    model: options.model,
    sampling: options.sampling,
    toolDefs: options.toolDefs,
    completion: [],
    turns: [],
    isCompleted: false,
    isTruncated: false,
    stopCondition: null,
    error: null,
    retryable: false,
    finalEnvResponse: null,
    timedOut: false,
    promptTooLong: false,
    reward: 0,
    metrics: {},
    scoringErrors: [],
    advantage: null,
    times: { startMs: Date.now(), setupMs: 0, generationMs: 0, modelMs: 0, envMs: 0, scoringMs: 0 },
    begun: "data" in options,
    // Without data the rollout has not begun, and nothing that reads `data` is given it (see `begun`).
    data: options.data as Data,
    signal: options.signal,
  };
}

/** Records the error that ends a rollout (the first one wins) and whether a retry may help. */
export function recordError<Data>(state: RolloutState<Data>, error: unknown): void {
  if (state.error !== null) return;
  state.error = errorData(error);
  state.retryable = isRetryable(error);
}

/** Turns any thrown value into the `ErrorData` recorded on a rollout. */
export function errorData(error: unknown): ErrorData {
  const chain = errorChain(error);
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return {
    error: name,
    message,
    error_chain_repr: chain.join(" <- "),
    error_chain_str: chain.join("\n"),
  };
}
