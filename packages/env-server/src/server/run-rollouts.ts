/**
 * Runs the rollouts of one request in this worker, exactly as `vf eval` runs a group: core's
 * `generate` (rollout, retries of infrastructure failures, scoring), then the finished states with
 * their records and the model calls each made. A cancelled request rejects with `CancelledError`.
 */
import {
  CancelledError,
  type Environment,
  generate,
  type RolloutInput,
  type RolloutState,
} from "@vf-rl/core";
import type { ClientLeases, EndpointConfig, SamplingArgs } from "@vf-rl/core/client";
import type { RolloutRecord } from "@vf-rl/core/results";
import { CallRecorder, type ModelCallRecord } from "./call-recorder.ts";

/** One request's rollouts: what to run, against which endpoint, how. */
export interface RunRolloutsOptions {
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  clients: ClientLeases;
  endpoint: EndpointConfig;
  /** Ask every call for vLLM's token ids and logprobs (a training client). */
  wantTokens: boolean;
  inputs: RolloutInput[];
  model: string;
  sampling: SamplingArgs;
  /** Score each rollout alone (v1 `run`, v0 `run_rollout`) instead of the inputs as one group. */
  independent: boolean;
  maxRetries: number;
  stateColumns: string[];
  /** Per-rollout wall-clock limit in seconds, overriding the environment's. */
  timeoutSeconds?: number;
  signal: AbortSignal;
}

/** A finished rollout. */
export interface FinishedRollout {
  state: RolloutState<unknown>;
  record: RolloutRecord;
  calls: ModelCallRecord[];
  /** Epoch milliseconds when scoring of its group began and ended. */
  scoring: { startMs: number; endMs: number };
}

/** Runs the rollouts; see the file comment. Results are in input order. */
export async function runRollouts(options: RunRolloutsOptions): Promise<FinishedRollout[]> {
  const lease = options.clients.acquire(options.endpoint);
  try {
    const recorder = new CallRecorder(
      lease.client,
      options.wantTokens ? { logprobs: true, return_token_ids: true } : {},
    );
    const finished: FinishedRollout[] = [];
    const result = await generate(options.env, options.inputs, {
      clients: recorder.client,
      model: options.model,
      sampling: options.sampling,
      maxConcurrent: Math.max(1, options.inputs.length),
      independentScoring: options.independent,
      maxRetries: options.maxRetries,
      retryDelaySeconds: (attempt) => Math.min(10, 0.5 * 2 ** (attempt - 1)),
      stateColumns: options.stateColumns,
      signal: options.signal,
      ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
      onGroup: (records, states = []) => {
        const endMs = Date.now();
        const scoringMs = Math.max(...states.map((state) => state.times.scoringMs), 0);
        states.forEach((state, i) => {
          finished.push({
            state,
            record: records[i]!,
            calls: recorder.callsOf(state.signal, options.inputs.length === 1),
            scoring: { startMs: endMs - scoringMs, endMs },
          });
        });
      },
    });
    if (result.cancelled) throw new CancelledError("rollout aborted");
    const order = (r: FinishedRollout) => options.inputs.indexOf(r.state.input);
    return finished.sort((a, b) => order(a) - order(b));
  } finally {
    lease.release();
  }
}
