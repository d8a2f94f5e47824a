/**
 * Checks every response reader shares: a body that is empty or not a JSON object, a body of the
 * wrong shape, the one choice of an OpenAI answer, and the finish reasons vf keeps. Each names the endpoint and what to check.
 */
import type { z } from "zod";
import { EmptyModelResponseError, InvalidModelResponseError } from "../errors.ts";
import type { FinishReason } from "./model-client.ts";

/** `body` as an object, or the typed error for an empty body or something that is not an object. */
export function checkedObject(body: unknown, url: string, what: string): object {
  if (body === undefined || body === null || body === "") {
    throw new EmptyModelResponseError(
      `the model endpoint ${url} returned an empty body: check the server's logs; the request may have been cut short`,
    );
  }
  if (typeof body !== "object" || Array.isArray(body)) {
    throw new InvalidModelResponseError(
      `the model endpoint ${url} returned something that is not a ${what} (${preview(body)}): check that the base URL points to a server of this API and the client type matches it`,
    );
  }
  return body;
}

/** The error for a body that failed its schema: the first issue and where it is. */
export function invalidShape(
  url: string,
  error: z.ZodError,
  what: string,
  api: string,
): InvalidModelResponseError {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return new InvalidModelResponseError(
    `the model endpoint ${url} returned a malformed ${what} (${issue?.message ?? "bad shape"}${where}): check that the server speaks ${api}`,
  );
}

/**
 * The one choice of an OpenAI answer; none, or several (`n` or `best_of` above 1, named in
 * `severalHint`), is the typed error.
 */
export function onlyChoice<C>(choices: readonly C[], url: string, severalHint: string): C {
  if (choices.length === 0) {
    throw new EmptyModelResponseError(
      `the model endpoint ${url} returned no choices: check the server's logs (the request may have been filtered or aborted)`,
    );
  }
  if (choices.length > 1) {
    throw new InvalidModelResponseError(
      `the model endpoint ${url} returned ${choices.length} choices, expected 1: ${severalHint}`,
    );
  }
  return choices[0]!;
}

const FINISH_REASONS = new Set<string>(["stop", "length", "tool_calls", "content_filter"]);

/** An OpenAI finish reason as vf keeps it; anything else is "other". */
export function finishReasonOf(reason: string | null | undefined): FinishReason {
  return reason && FINISH_REASONS.has(reason) ? (reason as FinishReason) : "other";
}

function preview(body: unknown): string {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
}
