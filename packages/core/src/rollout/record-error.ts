/** Records the error that ends a rollout (the first one wins) and whether a retry may help. */
import { isRetryable } from "../errors.ts";
import { errorData } from "./error-data.ts";
import type { RolloutState } from "./rollout-state.ts";

export function recordError<Data>(state: RolloutState<Data>, error: unknown): void {
  if (state.error !== null) return;
  state.error = errorData(error);
  state.retryable = isRetryable(error);
}
