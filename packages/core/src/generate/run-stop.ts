/**
 * Stopping a run on the first error that every later model call would repeat (a rejected key, a
 * model the endpoint does not serve, a spent quota): no new rollout starts, rollouts in flight are
 * cancelled, and a client handed to a rollout answers later calls with that error instead of
 * sending them. The rollout whose call failed is spared the cancel, so it records the error itself.
 */
import { FatalModelError, RunStoppedError } from "../client/fatal-model-error.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "../client/model-client.ts";
import type { CancelScope } from "./cancel-scope.ts";

/** The stop of one `generate` call. */
export class RunStop {
  /** The error that stopped the run, or null while it runs. */
  error: FatalModelError | null = null;

  constructor(private readonly scope: CancelScope) {}

  /** `client` as one rollout sees it; `own` is that rollout's signal. */
  watch(client: ModelClient, own: AbortSignal): ModelClient {
    return new WatchedClient(this, client, own);
  }

  /** Stops the run on `error`, sparing the rollout whose signal is `except`. */
  stop(error: FatalModelError, except: AbortSignal): void {
    if (this.error) return;
    this.error = error;
    this.scope.abortAll(new RunStoppedError(error), except);
  }
}

/**
 * A client as one rollout of a run sees it: a call after the stop fails with the stop's error, and
 * a call that fails with a `FatalModelError` stops the run. A class rather than a closure per
 * rollout, and no async frame of its own per call: a run makes one per rollout.
 */
class WatchedClient implements ModelClient {
  readonly baseUrl: string;

  constructor(
    private readonly run: RunStop,
    private readonly client: ModelClient,
    private readonly own: AbortSignal,
  ) {
    this.baseUrl = client.baseUrl;
  }

  chat(request: ChatRequest, options?: ChatCallOptions): Promise<ModelResponse> {
    if (this.run.error) return Promise.reject(this.run.error);
    let call: Promise<ModelResponse>;
    try {
      call = this.client.chat(request, options);
    } catch (error) {
      call = Promise.reject(error);
    }
    return call.catch((error: unknown) => {
      if (error instanceof FatalModelError) this.run.stop(error, this.own);
      throw error;
    });
  }
}
