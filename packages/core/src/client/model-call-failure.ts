/**
 * What a failed model call means: whether to retry it, and the typed vf error to throw when it is
 * not retried (or retries ran out). Turns the SDKs' errors (openai's and Anthropic's, read alike by
 * sdk-errors.ts) and fetch's network errors into the errors of errors.ts, and those that stop a run
 * (fatal-model-error.ts).
 */
import {
  CancelledError,
  EndpointUnreachableError,
  InfraError,
  InvalidModelResponseError,
  ModelHttpError,
  OverlongPromptError,
  VfError,
} from "../errors.ts";
import { ApiKeyRejectedError, ModelNotFoundError, QuotaExhaustedError } from "./fatal-model-error.ts";
import {
  type HttpErrorAnswer,
  httpErrorAnswer,
  isConnectionError,
  isRequestTimeout,
  isUserAbort,
} from "./sdk-errors.ts";

/** Where and what a call was, for messages. */
export interface CallContext {
  /** The chat-completions URL. */
  url: string;
  model: string;
  apiKeyVar: string | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** A classified failure: retry it (when retries remain), or throw `error`. */
export interface Failure {
  retry: boolean;
  /** The server's Retry-After, in ms, when it sent one. */
  retryAfterMs: number | null;
  /** What to throw now, or after the last retry. */
  error: Error;
}

// Errors that mean nothing is listening there (or no such host): retrying will not help soon.
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

const CONTEXT_OVERFLOW =
  /maximum context length|context_length_exceeded|prompt is too long|longer than the model's context|exceeds the context window/i;

/** Classifies whatever a chat call threw. */
export function classifyFailure(error: unknown, context: CallContext): Failure {
  const fail = (e: Error): Failure => ({ retry: false, retryAfterMs: null, error: e });
  if (error instanceof VfError) return fail(error);
  if (context.signal?.aborted || isUserAbort(error)) {
    return fail(new CancelledError(`model call to ${context.url} cancelled`));
  }
  if (isRequestTimeout(error)) {
    return fail(
      new InfraError(
        `the model call to ${context.url} timed out after ${context.timeoutMs / 1000} s: raise timeoutSeconds, lower max_tokens, or check the server's load`,
        { cause: error },
      ),
    );
  }
  if (isConnectionError(error)) {
    const unreachable = hasErrorCode(error, UNREACHABLE_CODES);
    return {
      retry: !unreachable,
      retryAfterMs: null,
      error: new EndpointUnreachableError(context.url, error),
    };
  }
  const answer = httpErrorAnswer(error);
  if (answer !== null) return classifyStatus(answer, context);
  if (error instanceof SyntaxError) {
    return fail(
      new InvalidModelResponseError(
        `the model endpoint ${context.url} returned a body that is not valid JSON (${error.message}): check that the base URL points to an OpenAI-compatible server`,
        { cause: error },
      ),
    );
  }
  // A connection that drops while the body is read surfaces unwrapped: undici's SocketError
  // (UND_ERR_SOCKET), or "terminated" from WHATWG fetch.
  if (hasErrorCode(error, DROP_CODES) || (error instanceof TypeError && error.message === "terminated")) {
    return { retry: true, retryAfterMs: null, error: new EndpointUnreachableError(context.url, error) };
  }
  // Anything else is a fault of ours or of a library: let it surface as it is.
  return fail(error instanceof Error ? error : new Error(String(error)));
}

const DROP_CODES = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

function classifyStatus(answer: HttpErrorAnswer, context: CallContext): Failure {
  const { status, serverMessage, error } = answer;
  const fail = (e: Error): Failure => ({ retry: false, retryAfterMs: null, error: e });
  // A spent quota answers 429 like a rate limit, but waiting does not refill it.
  if (status === 429 && isQuotaExhausted(answer))
    return fail(new QuotaExhaustedError(context.url, serverMessage));
  if (status === 429 || status >= 500) {
    const hint =
      status === 429
        ? "lower the concurrency or wait for the rate limit to reset"
        : "check the server's logs; it may be overloaded or restarting";
    return {
      retry: true,
      retryAfterMs: retryAfterMs(answer.headers),
      error: new ModelHttpError(
        `the model endpoint ${context.url} answered HTTP ${status} (${serverMessage}): ${hint}`,
        status,
      ),
    };
  }
  if ((status === 400 || status === 413 || status === 422) && isContextOverflow(answer)) {
    return fail(
      new OverlongPromptError(
        `the prompt is longer than the context of model "${context.model}" (${serverMessage}): shorten the prompt, lower max_tokens, or use a model with a longer context`,
        { cause: error },
      ),
    );
  }
  if (status === 401 || status === 403)
    return fail(new ApiKeyRejectedError(context.url, status, context.apiKeyVar, serverMessage));
  if (status === 404) return fail(new ModelNotFoundError(context.model, context.url, serverMessage));
  return fail(
    new ModelHttpError(
      `the model endpoint ${context.url} answered HTTP ${status} (${serverMessage}): check the model name and the sampling args`,
      status,
    ),
  );
}

function isQuotaExhausted(answer: HttpErrorAnswer): boolean {
  return answer.code === "insufficient_quota" || answer.type === "insufficient_quota";
}

function isContextOverflow(answer: HttpErrorAnswer): boolean {
  return answer.code === "context_length_exceeded" || CONTEXT_OVERFLOW.test(answer.serverMessage);
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const value = headers?.get("retry-after-ms") ?? null;
  if (value !== null && Number.isFinite(Number(value))) return Number(value);
  const seconds = headers?.get("retry-after") ?? null;
  if (seconds !== null && Number.isFinite(Number(seconds))) return Number(seconds) * 1000;
  return null;
}

/** Whether `error` or any of its causes (AggregateError members included) carries one of `codes`. */
function hasErrorCode(error: unknown, codes: Set<string>): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && codes.has(code)) return true;
    if (current instanceof AggregateError && current.errors.some((e) => hasErrorCode(e, codes))) return true;
    current = current.cause;
  }
  return false;
}
