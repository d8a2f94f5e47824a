/** Builds the initial state of one rollout from its input. */
import { randomUUID } from "node:crypto";
import type { SamplingArgs } from "../client/model-client.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import type { RolloutInput } from "./rollout-input.ts";
import type { RolloutState } from "./rollout-state.ts";

export interface CreateStateOptions {
  model: string;
  sampling: SamplingArgs;
  toolDefs: ToolDefinition[];
  signal: AbortSignal;
}

/** The state a rollout starts from: the input's prompt, no turns yet, the call settings and timers. */
export function createState<Data>(input: RolloutInput, options: CreateStateOptions): RolloutState<Data> {
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
    judgeResponses: {},
    data: {} as Data,
    signal: options.signal,
  };
}
