/**
 * The check a client makes before a run: one request that lists the models. Nothing answering, or a
 * refused key, throws the error every rollout would otherwise record; any other answer (a 404 from a
 * server without a models route, say) passes, as the run will say more.
 */
import { EndpointUnreachableError } from "../errors.ts";
import { ApiKeyRejectedError } from "./fatal-model-error.ts";
import { httpErrorAnswer, isConnectionError, isUserAbort } from "./sdk-errors.ts";

const PREFLIGHT_TIMEOUT_MS = 10_000;

/** Runs `list` once with a 10 s limit; `baseUrl` and `apiKeyVar` are for messages. */
export async function preflight(
  list: (signal: AbortSignal) => Promise<unknown>,
  where: { baseUrl: string; apiKeyVar?: string | undefined },
): Promise<void> {
  const signal = AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS);
  try {
    await list(signal);
  } catch (error) {
    if (isConnectionError(error) || isUserAbort(error) || signal.aborted) {
      throw new EndpointUnreachableError(where.baseUrl, error);
    }
    const answer = httpErrorAnswer(error);
    if (answer && (answer.status === 401 || answer.status === 403)) {
      throw new ApiKeyRejectedError(where.baseUrl, answer.status, where.apiKeyVar, answer.serverMessage);
    }
  }
}
