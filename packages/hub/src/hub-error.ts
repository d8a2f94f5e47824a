/**
 * The one error type of the Hub, on both sides of the wire: the server throws it and renders it as
 * `{error: {code, message, details}}`; the client rebuilds it from that envelope. Branch on `code`.
 */
import { VfError } from "@vf-rl/core/errors";
import { type HubErrorCode, STATUS_OF } from "./api/error-code.ts";

/** A Hub failure with a typed `code`, its HTTP `status`, and a message that says what to do. */
export class HubError extends VfError {
  readonly status: number;
  constructor(
    readonly code: HubErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = STATUS_OF[code];
  }
}

/** The environment (or version, or report) does not exist or is not visible to the caller. */
export function notFound(what: string): HubError {
  return new HubError("not_found", `${what} was not found: check the name, or sign in if it is private`);
}
