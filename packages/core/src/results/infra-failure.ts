/**
 * Which recorded rollout errors are the infrastructure's fault (the model server answered 5xx or
 * 429, a call timed out, a connection dropped, a sandbox failed), as opposed to the model's or the
 * environment's own failure. A resumed run reruns the former and keeps the latter.
 */
import { EndpointUnreachableError, InfraError, ModelHttpError, SandboxError } from "../errors.ts";
import type { ErrorData } from "./rollout-record.ts";

/** Class names of the InfraError family: vf's, and those Python verifiers records. */
const INFRA_ERROR_NAMES = new Set([
  ...[InfraError, EndpointUnreachableError, ModelHttpError, SandboxError].map((c) => c.name),
  // verifiers' own InfraError subclasses
  "TunnelError",
  "BrowserSandboxError",
]);

/** Whether a rollout's recorded error is an infrastructure failure worth running again. */
export function isInfraFailure(error: ErrorData | null): boolean {
  return error !== null && INFRA_ERROR_NAMES.has(error.error);
}
