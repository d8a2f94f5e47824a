/**
 * Model-call failures that every later call of the run would repeat: a rejected key, a model the
 * endpoint does not serve, an exhausted quota. The rollout that meets one records it like any
 * other error, and `generate` stops the run on it instead of sending the remaining requests.
 * Kept apart from model-call-failure.ts (which loads the openai package) so that readers of saved
 * runs can name these classes cheaply.
 */
import { UserError, VfError } from "../errors.ts";

/** Base of the failures that stop a run. `serverMessage` is what the server itself said. */
export class FatalModelError extends UserError {
  constructor(
    message: string,
    /** The HTTP status the endpoint answered. */
    readonly status: number,
    /** The server's own message (OpenAI's `error.message`), or "" when it sent none. */
    readonly serverMessage: string,
  ) {
    super(message);
  }
}

/** The endpoint rejected the API key (HTTP 401 or 403). */
export class ApiKeyRejectedError extends FatalModelError {
  constructor(
    readonly url: string,
    status: number,
    readonly apiKeyVar: string | undefined,
    serverMessage = "",
  ) {
    super(
      `the model endpoint ${url} rejected the API key (HTTP ${status}${serverMessage ? `: ${serverMessage}` : ""}): ${
        apiKeyVar
          ? `check the key in ${apiKeyVar}, or name the variable that holds the right key`
          : "no key variable was given: name the variable that holds the key (key in the endpoint's row of endpoints.toml)"
      }`,
      status,
      serverMessage,
    );
  }
}

/** The endpoint does not serve this model, or the URL has no chat-completions route (HTTP 404). */
export class ModelNotFoundError extends FatalModelError {
  constructor(
    readonly model: string,
    readonly url: string,
    serverMessage: string,
  ) {
    super(
      `model "${model}" was not found at ${url} (${serverMessage}): check the model name against the models the server lists (GET /v1/models), and that the base URL ends in /v1`,
      404,
      serverMessage,
    );
  }
}

/** The account behind the key has no quota or credit left (OpenAI's 429 `insufficient_quota`). */
export class QuotaExhaustedError extends FatalModelError {
  constructor(
    readonly url: string,
    serverMessage: string,
  ) {
    super(
      `the model endpoint ${url} refused the call: the account's quota is used up (HTTP 429: ${serverMessage}): add credit or raise the limit in the provider's billing settings, or use another key`,
      429,
      serverMessage,
    );
  }
}

/** Recorded on a rollout cancelled, or never started in its group, because a failure above stopped the run. */
export class RunStoppedError extends VfError {
  constructor(readonly by: FatalModelError) {
    super(`the run stopped before this rollout finished, on: ${by.message}`);
  }
}

/**
 * Class names of the errors a stopped run leaves on its rows, for rows read back from disk (where
 * only the name remains): none says anything about the model or the environment, so a resumed run
 * runs those rollouts again.
 */
export const STOPPED_RUN_ERROR_NAMES: ReadonlySet<string> = new Set([
  ...[FatalModelError, ApiKeyRejectedError, ModelNotFoundError, QuotaExhaustedError, RunStoppedError].map(
    (c) => c.name,
  ),
  // cache-miss-error.ts's class, named here as it imports this file: a replay's miss, recorded later.
  "CacheMissError",
]);
