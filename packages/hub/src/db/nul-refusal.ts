/**
 * PostgreSQL refuses a NUL character in text (`invalid byte sequence for encoding "UTF8": 0x00`,
 * SQLSTATE 22021) and as `\u0000` in jsonb (22P05), in PGlite as on a server. Requests are checked for
 * NULs where they enter (api/nul-characters.ts); this is the guard behind that, so a NUL that reaches
 * a statement by any other way is the caller's `bad_request`, not the Hub's internal error.
 */
import { HubError } from "../hub-error.ts";

const NUL_REFUSED = new Set(["22021", "22P05"]);

/** `error` as the Hub reports it: PostgreSQL's refusal of a NUL becomes `bad_request`. */
export function asNulRefusal(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !NUL_REFUSED.has(code)) return error;
  return new HubError(
    "bad_request",
    "the request holds a NUL character (\\0, %00 or \\u0000), which the Hub cannot store or search: remove it",
  );
}
