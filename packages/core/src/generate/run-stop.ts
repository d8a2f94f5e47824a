/**
 * Stopping a run on the first error that every later model call would repeat (a rejected key, a
 * model the endpoint does not serve, a spent quota): no new rollout starts, rollouts in flight are
 * cancelled, and a client handed to a rollout answers later calls with that error instead of
 * sending them. The rollout whose call failed is spared the cancel, so it records the error itself.
 */
import { FatalModelError, RunStoppedError } from "../client/fatal-model-error.ts";
import type { ModelClient } from "../client/model-client.ts";
import type { CancelScope } from "./cancel-scope.ts";

/** The stop of one `generate` call. */
export class RunStop {
  /** The error that stopped the run, or null while it runs. */
  error: FatalModelError | null = null;

  constructor(private readonly scope: CancelScope) {}

  /** `client` as one rollout sees it; `own` is that rollout's signal. */
  watch(client: ModelClient, own: AbortSignal): ModelClient {
    return {
      baseUrl: client.baseUrl,
      chat: async (request, options) => {
        if (this.error) throw this.error;
        try {
          return await client.chat(request, options);
        } catch (error) {
          if (error instanceof FatalModelError) this.stop(error, own);
          throw error;
        }
      },
    };
  }

  private stop(error: FatalModelError, except: AbortSignal): void {
    if (this.error) return;
    this.error = error;
    this.scope.abortAll(new RunStoppedError(error), except);
  }
}
