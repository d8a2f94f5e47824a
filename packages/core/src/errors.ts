/**
 * One error hierarchy for vf. `UserError` is something the user can fix (a flag, a file, a config,
 * env args, a key); `SystemError` is a fault of ours or of a service we call. Every message states
 * the cause, then what to do.
 */
export class VfError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad input: flags, files, configs, env args, missing keys. The hint says what to do. */
export class UserError extends VfError {}

/** A fault in vf itself or in a service it talks to. */
export class SystemError extends VfError {}

/** No environment with this id could be found. */
export class EnvironmentNotFoundError extends UserError {
  constructor(
    readonly envId: string,
    hint: string,
  ) {
    super(`unknown environment "${envId}": ${hint}`);
  }
}

/**
 * A mistake in an environment's own code or options (a duplicate name, a bad option), found when
 * the environment is built: the message names the fix.
 */
export class AuthoringError extends UserError {}

/** Environment arguments failed the environment's schema. */
export class EnvArgsError extends UserError {
  constructor(
    readonly envId: string,
    readonly issues: string[],
  ) {
    super(`bad env args for "${envId}": ${issues.join("; ")}`);
  }
}

/** A dataset file is missing or malformed. `line` is 1-based when known. */
export class DatasetError extends UserError {
  constructor(
    message: string,
    readonly path?: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** An environment variable that should hold an API key is not set. */
export class MissingKeyError extends UserError {
  constructor(readonly variable: string) {
    super(
      `the API key variable ${variable} is not set: export ${variable}=... or pass -k with another variable`,
    );
  }
}

/** A config file (TOML/JSON) failed validation. */
export class ConfigError extends UserError {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
  }
}

// ---- errors recorded on rollouts (errors are data) ----

/** Base of every error that can end a rollout; recorded on the rollout, never thrown past it. */
export class RolloutError extends VfError {}

/** The model call failed or returned something unusable. */
export class ModelError extends RolloutError {}

/** The model returned a response that cannot be used (no choices, several choices, bad shape). */
export class InvalidModelResponseError extends ModelError {}

/** The model returned no content and no tool calls. */
export class EmptyModelResponseError extends InvalidModelResponseError {}

/** The prompt is longer than the model's context. */
export class OverlongPromptError extends ModelError {}

/** A tool call could not run. */
export class ToolError extends RolloutError {}

/** The tool call arguments were not valid JSON or failed the tool's schema. */
export class ToolParseError extends ToolError {}

/** The tool raised while running. */
export class ToolCallError extends ToolError {}

/**
 * Infrastructure failure (network, server 5xx, rate limit, sandbox): worth retrying the whole
 * rollout or group with `maxRetries`.
 */
export class InfraError extends RolloutError {}

/** The endpoint could not be reached at all. */
export class EndpointUnreachableError extends InfraError {
  constructor(
    readonly url: string,
    cause?: unknown,
  ) {
    super(
      `cannot reach the model endpoint ${url}: check that the server is running and the URL (-b or endpoints.toml) is right`,
      { cause },
    );
  }
}

/** The endpoint answered with an HTTP error. */
export class ModelHttpError extends InfraError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A sandbox could not start or isolate the code it runs. */
export class SandboxError extends InfraError {}

/** The rollout was cancelled (Ctrl-C or an abort signal). */
export class CancelledError extends VfError {
  constructor(message = "cancelled") {
    super(message);
  }
}

/** Errors whose rollouts are retried by `maxRetries`. */
export function isRetryable(error: unknown): boolean {
  return error instanceof InfraError || error instanceof InvalidModelResponseError;
}

/** The chain of causes, outermost first, as "Name: message" strings. */
export function errorChain(error: unknown): string[] {
  const chain: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (current instanceof Error) {
      chain.push(`${current.name}: ${current.message}`);
      current = current.cause;
    } else {
      chain.push(String(current));
      break;
    }
  }
  return chain;
}
