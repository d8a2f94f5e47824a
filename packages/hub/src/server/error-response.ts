/** Renders any thrown error as the API envelope; unexpected errors become `internal` without details. */
import type { Context } from "hono";
import { HubError } from "../hub-error.ts";
import type { HubEnv } from "./hub-context.ts";

/** The HubError for `error`: itself, or `internal` for a fault of ours (logged to stderr). */
export function asHubError(error: unknown): HubError {
  if (error instanceof HubError) return error;
  console.error("vf hub: unexpected error:", error);
  return new HubError(
    "internal",
    "the Hub failed on this request: retry, and report it to the Hub's admin if it persists",
  );
}

/** The JSON envelope response for `error`. */
export function errorJson(c: Context<HubEnv>, error: HubError): Response {
  const headers: Record<string, string> = {};
  if (error.code === "rate_limited" && typeof error.details?.retry_after === "number") {
    headers["retry-after"] = String(error.details.retry_after);
  }
  return c.json(
    {
      error: {
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      },
    },
    error.status as 400,
    headers,
  );
}
