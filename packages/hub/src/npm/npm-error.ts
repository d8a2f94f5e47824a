/**
 * Errors on /npm paths in the shape npm's client reads: `{error: "<message>"}`, which npm prints after
 * the status line (`404 Not Found - GET <url> - <message>`). The Hub's `code` and `details` ride along.
 * The API's `{error: {code, message}}` would print as "[object Object]".
 */
import type { Context } from "hono";
import { HubError } from "../hub-error.ts";
import type { HubEnv } from "../server/hub-context.ts";

/** The npm-shaped JSON reply for `error`. */
export function npmErrorJson(c: Context<HubEnv>, error: HubError): Response {
  const headers: Record<string, string> = {};
  if (error.code === "rate_limited" && typeof error.details?.retry_after === "number") {
    headers["retry-after"] = String(error.details.retry_after);
  }
  return c.json(
    { error: error.message, code: error.code, ...(error.details ? { details: error.details } : {}) },
    error.status as 400,
    headers,
  );
}

/** The error for a request no /npm route answers, saying what the registry does serve. */
export function npmRouteNotFound(method: string, path: string): HubError {
  return new HubError(
    "not_found",
    `the Hub's npm registry has no ${method} ${path}: it serves packuments (GET /npm/@owner/name), tarballs and search (GET /npm/-/v1/search?text=...); publish with vf env push`,
  );
}
