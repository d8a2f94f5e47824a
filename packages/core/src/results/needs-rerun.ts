/**
 * Which recorded rollout errors say nothing about the model or the environment, so a resumed run
 * runs those rollouts again: the infrastructure's failures (the model server answered 5xx or 429,
 * a call timed out, a connection dropped, a sandbox failed), and the errors a stopped run left (a
 * rejected key, an unknown model, a spent quota, and the rollouts cancelled by that stop).
 */
import { STOPPED_RUN_ERROR_NAMES } from "../client/fatal-model-error.ts";
import { EndpointUnreachableError, InfraError, ModelHttpError, SandboxError } from "../errors.ts";
import type { ErrorData } from "../records/rollout-record.ts";

/** Class names of the InfraError family: vf's, and those Python verifiers records. */
const INFRA_ERROR_NAMES = new Set([
  ...[InfraError, EndpointUnreachableError, ModelHttpError, SandboxError].map((c) => c.name),
  // verifiers' own InfraError subclasses
  "TunnelError",
  "BrowserSandboxError",
]);

/** Whether a rollout's recorded error is one a resumed run should run again. */
export function needsRerun(error: ErrorData | null): boolean {
  return error !== null && (INFRA_ERROR_NAMES.has(error.error) || STOPPED_RUN_ERROR_NAMES.has(error.error));
}
