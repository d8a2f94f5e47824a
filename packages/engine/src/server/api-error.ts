/**
 * Errors the engine server answers with, in OpenAI's shape: HTTP status plus
 * `{"error": {"message", "type", "param", "code"}}`. The OpenAI SDKs read `message` and `code`, and
 * vf's client recognises "maximum context length" in the message as an overlong prompt.
 */
import type { z } from "zod";
import { issuePath } from "../schema-issues.ts";

/** The JSON body of an error answer. */
export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | number | null };
}

/** An error to answer with: its HTTP status and OpenAI's fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The JSON body of this error. */
  body(): ErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** 400: the request is malformed or asks for something this server does not do. */
export function badRequest(message: string, param: string | null = null): ApiError {
  return new ApiError(400, message, "invalid_request_error", null, param);
}

/** 404 for a model this server does not serve. */
export function modelNotFound(model: string, served: string): ApiError {
  return new ApiError(
    404,
    `The model \`${model}\` does not exist: this server serves "${served}" (GET /v1/models lists it)`,
    "invalid_request_error",
    "model_not_found",
    "model",
  );
}

/** 400 for a prompt longer than the context; the wording is the one OpenAI and vLLM use. */
export function contextLengthExceeded(promptTokens: number, maxSeqLen: number): ApiError {
  return new ApiError(
    400,
    `This model's maximum context length is ${maxSeqLen} tokens. However, your prompt has ` +
      `${promptTokens} tokens: shorten the prompt`,
    "invalid_request_error",
    "context_length_exceeded",
    "messages",
  );
}

/** 400 listing the first problem zod found in a request body, with its path as `param`. */
export function invalidBody(error: z.ZodError, what: string): ApiError {
  const issue = error.issues[0]!;
  const param = issuePath(issue, "") || null;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  return badRequest(`invalid ${what}: ${param ?? "body"}: ${issue.message}${more}: fix this field`, param);
}
