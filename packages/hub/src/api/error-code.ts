/**
 * The typed error codes of the Hub API, shared by server and client. Clients branch on `code`, never
 * on message text; each code has one HTTP status.
 */
import { z } from "zod";

/** Every error code the API answers with. */
export const HubErrorCode = z.enum([
  "bad_request",
  "validation_failed",
  "invalid_package",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "version_exists",
  "hash_mismatch",
  "payload_too_large",
  "rate_limited",
  "internal",
  "unreachable",
]);
export type HubErrorCode = z.infer<typeof HubErrorCode>;

/** The HTTP status each code is sent with (`unreachable` is client-side only: no response came). */
export const STATUS_OF: Record<HubErrorCode, number> = {
  bad_request: 400,
  validation_failed: 422,
  invalid_package: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  version_exists: 409,
  hash_mismatch: 422,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  unreachable: 0,
};
