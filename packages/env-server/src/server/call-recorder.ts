/**
 * Wraps the model client a request's rollouts use and records every call: when it was sent and
 * answered, and what it returned or threw. The records become a trace's `calls` (verifiers'
 * `ModelCall`: per-call model, sampling, usage, timing, error). Calls are told apart by the abort
 * signal each rollout passes with its calls (its own), or all belong to the one rollout of a request.
 */
import type { ModelClient, SamplingArgs } from "@vf-rl/core";
import type { ChatCallOptions, ChatRequest, ModelResponse } from "@vf-rl/core/client";

/** One model call of a rollout. */
export interface ModelCallRecord {
  /** Epoch milliseconds when the request was sent and when the answer (or failure) came. */
  startMs: number;
  endMs: number;
  model: string;
  sampling: SamplingArgs;
  /** The answer; absent when the call failed. */
  response?: ModelResponse;
  /** What the call threw; absent when it answered. */
  error?: unknown;
}

/** Records the calls made through `client`; see the file comment. */
export class CallRecorder {
  readonly client: ModelClient;
  private readonly bySignal = new WeakMap<AbortSignal, ModelCallRecord[]>();
  private readonly all: ModelCallRecord[] = [];

  /** `extraSampling` is merged into every call (a train client asks for token ids and logprobs). */
  constructor(inner: ModelClient, extraSampling: SamplingArgs = {}) {
    this.client = {
      baseUrl: inner.baseUrl,
      chat: async (request: ChatRequest, options?: ChatCallOptions): Promise<ModelResponse> => {
        const sent: ChatRequest = { ...request, sampling: { ...request.sampling, ...extraSampling } };
        const record: ModelCallRecord = {
          startMs: Date.now(),
          endMs: 0,
          model: sent.model,
          sampling: sent.sampling,
        };
        this.all.push(record);
        if (options?.signal) {
          const list = this.bySignal.get(options.signal);
          if (list) list.push(record);
          else this.bySignal.set(options.signal, [record]);
        }
        try {
          record.response = await inner.chat(sent, options);
          return record.response;
        } catch (error) {
          record.error = error;
          throw error;
        } finally {
          record.endMs = Date.now();
        }
      },
    };
  }

  /** The calls of the rollout whose abort signal is `signal`; with `onlyRollout`, every call made. */
  callsOf(signal: AbortSignal, onlyRollout: boolean): ModelCallRecord[] {
    return this.bySignal.get(signal) ?? (onlyRollout ? this.all : []);
  }
}
