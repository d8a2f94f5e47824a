/** Error bodies as each API's SDKs read them: OpenAI's (and vLLM's older flat one) and Anthropic's. */

const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
};

/** OpenAI's error body, `{error: {message, type, param, code}}`, or vLLM's older flat one. */
export function openAIError(
  status: number,
  message: string,
  code?: string,
  format: "openai" | "flat" = "openai",
): string {
  const type = OPENAI_ERROR_TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");
  const error = { message, type, param: null, code: code ?? null };
  return JSON.stringify(format === "flat" ? { object: "error", ...error } : { error });
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** Anthropic's error body, `{type: "error", error: {type, message}}`. */
export function anthropicError(status: number, message: string): string {
  const type = ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return JSON.stringify({ type: "error", error: { type, message } });
}
