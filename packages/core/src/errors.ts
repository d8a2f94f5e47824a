/**
 * One error hierarchy for vf. `UserError` is something the user can fix (a flag, a file, a config,
 * env args, a key); `SystemError` is a fault of ours or of a service we call. Every message states
 * the cause, then what to do, naming settings in words and never a command-line flag: the same
 * setting is a flag of `vf eval`, a key of a `vf train` config or an option of `evaluate`, so each
 * host adds its own hint from the error's class and fields (see the CLI's cli-errors.ts).
 */

/**
 * Base of every error vf throws or records; `name` is the subclass's name ("EnvArgsError"), which
 * saved rollouts keep. Catch `UserError` for what the user can fix, `SystemError` for faults of
 * vf or a service, `RolloutError` for what ended one rollout.
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

// An environment can bring its own copy of @vf-rl/core (or a dependency of it can), and the errors
// it throws are then classes the host's `instanceof` does not know. Every copy marks VfError's
// prototype under a key that is the same in all of them (Symbol.for), so a host still tells an
// error vf describes (a user's mistake, a failed service) from a fault in vf's own code.
const VF_ERROR = Symbol.for("@vf-rl/core.VfError");
Object.defineProperty(VfError.prototype, VF_ERROR, { value: true });

/**
 * Whether `error` is a `VfError` of this core or of another copy of @vf-rl/core (an environment's
 * own install), whose message already says what happened and what to do.
 */
export function isVfError(error: unknown): error is VfError {
  return (
    error instanceof VfError ||
    (typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[VF_ERROR] === true)
  );
}

/** No environment with this id could be found. */
export class EnvironmentNotFoundError extends UserError {
  constructor(
    readonly envId: string,
    hint: string,
    /** An `owner/name` id that no installed package matches: a Hub environment not installed here. */
    readonly notInstalled = false,
  ) {
    super(`unknown environment "${envId}": ${hint}`);
  }
}

/**
 * One of vf's own environments (the npm package `@vf-env/<id>`), published apart from the CLI and
 * not installed here: the message is the line that installs it.
 */
export class EnvironmentNotInstalledError extends EnvironmentNotFoundError {
  constructor(
    envId: string,
    /** The npm package that holds it: "@vf-env/gsm8k". */
    readonly packageName: string,
  ) {
    super(envId, installLine(packageName));
    this.message = `environment ${envId} is not installed: ${installLine(packageName)}`;
  }
}

/**
 * A mistake in an environment's own code or options (a duplicate name, a bad option), found when
 * the environment is built: the message names the fix.
 */
export class AuthoringError extends UserError {}

/**
 * A rubric function named like a metric the environment reports itself (`num_turns`, a ToolEnv's
 * `total_tool_calls` and `<tool>_calls`): one value would silently replace the other in every row.
 */
export class DuplicateMetricError extends AuthoringError {
  constructor(
    /** The name both report. */
    readonly metric: string,
    /** What reports it besides the rubric, e.g. "ToolEnv (the calls of tool calculate)". */
    readonly reportedBy: string,
  ) {
    super(
      `the rubric's "${metric}" is also a metric ${reportedBy} reports itself, so one value would replace the other in every row: rename the rubric's function with { name: "..." }`,
    );
  }
}

/**
 * Independent scoring (each rollout scored alone) was asked of a rubric with group reward
 * functions, which score all rollouts of an example together.
 */
export class GroupScoringRequiredError extends UserError {
  constructor() {
    super(
      "this environment's rubric has group reward functions, which score all rollouts of an example together: score rollouts in groups (turn independent scoring off)",
    );
  }
}

/**
 * Settings given to a loaded environment (`Environment.configure`: max_turns, timeout_seconds, ...)
 * that it does not accept.
 */
export class EnvSettingsError extends UserError {}

/** Sampling args (temperature, max_tokens, extra_body, ...) that vf cannot send as given. */
export class SamplingArgsError extends UserError {
  constructor(
    message: string,
    /** The sampling arg at fault. */
    readonly arg: string,
  ) {
    super(message);
  }
}

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

/**
 * A package vf loads only where it is used (the Hub server's database, the env server's ZeroMQ,
 * Anthropic's SDK, Hugging Face uploads) is not installed: the message is the line that installs it.
 * `importOptional` throws it.
 */
export class MissingPackageError extends UserError {
  constructor(
    /** The npm package: "@electric-sql/pglite". */
    readonly packageName: string,
    /** What needs it, the message's first words: "the Hub server". */
    readonly neededBy: string,
    options?: { cause?: unknown },
  ) {
    super(`${neededBy} needs ${packageName}: ${installLine(packageName)}`, options);
  }
}

/** How a user installs package `name` in their project (vf is a devDependency there too). */
function installLine(name: string): string {
  return `npm install -D ${name}`;
}

/** An environment variable that should hold an API key is not set. */
export class MissingKeyError extends UserError {
  constructor(readonly variable: string) {
    super(
      `the API key variable ${variable} is not set: export ${variable}=..., or name the variable that holds the key`,
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

/** The endpoint registry (an endpoints.toml) cannot be read. */
export class EndpointRegistryUnreadableError extends ConfigError {
  constructor(
    /** The registry file. */
    readonly path: string,
    /** Why, from the file system. */
    readonly reason: string,
  ) {
    super(`cannot read the endpoint registry ${path}: ${reason}: check the registry's path`);
  }
}

/** A model that is neither an endpoint_id of the registry nor given a base URL to reach it at. */
export class ModelEndpointUnknownError extends ConfigError {
  constructor(
    readonly model: string,
    /** The endpoint registry it is not in, when one was loaded. */
    readonly registryPath: string | undefined,
  ) {
    const where = registryPath ? ` is not an endpoint_id in ${registryPath} and` : "";
    super(
      `model "${model}"${where} has no base URL: give the base URL of a server that serves it, or add an [[endpoint]] row with endpoint_id = "${model}" to configs/endpoints.toml`,
      "model",
    );
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

/**
 * An environment's `envResponse` returned what is not chat messages: the rollout ends with this
 * error recorded, since its conversation could not be saved or sent to the model.
 */
export class EnvResponseError extends RolloutError {}

/** A tool call could not run. */
export class ToolError extends RolloutError {}

/**
 * An agent program (a harness) failed: it threw, exited with an error while no limit ended it, or
 * did not stop when its time was up. Recorded on the rollout, whose trace holds what it printed.
 */
export class HarnessError extends RolloutError {
  constructor(
    message: string,
    readonly harness: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A taskset's `score` failed: the rollout scores 0 and the error is recorded on it. */
export class TasksetScoreError extends RolloutError {
  constructor(
    message: string,
    readonly taskset: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A taskset's `tools` failed: the agent does not run, the rollout scores 0, and the error is recorded on it. */
export class TasksetToolsError extends RolloutError {
  constructor(
    message: string,
    readonly taskset: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

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
      `cannot reach the model endpoint ${url}: check that the server is running and that the URL is right`,
      {
        cause,
      },
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

/**
 * An MCP server could not be started, connected to or listed, or it went away during a call. A
 * failure to start ends the rollout (retried by `maxRetries`); one during a call is a tool error
 * the model reads, and a shared server is started again at its next use.
 */
export class McpServerError extends InfraError {
  constructor(
    message: string,
    readonly server: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** An MCP tool answered with an error, with a result that is not MCP's, or not in time. */
export class McpToolError extends ToolError {
  constructor(
    message: string,
    readonly server: string,
    readonly tool: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

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

// The errors of saved runs live here, beside the others, so a host can tell them apart without
// loading the results module (and zod) at start-up. Their messages name settings in words
// ("resume", "the output folder"), never a command-line flag: under `vf train` the same setting is
// a config key, so the host adds its own hint from the fields (see the CLI's cli-errors.ts).

/** One setting that differs between a saved run and the run asked for: the saved value and the new one. */
export interface SettingMismatch {
  key: string;
  saved: unknown;
  now: unknown;
}

/** "key (saved X, now Y); ..." for a message. */
export function describeMismatches(mismatches: readonly SettingMismatch[]): string {
  return mismatches.map((m) => `${m.key} (saved ${said(m.saved)}, now ${said(m.now)})`).join("; ");
}

// A setting one of the runs has not (an agent run's harness, on an environment's own run) is "none".
function said(value: unknown): string {
  return value === undefined ? "none" : JSON.stringify(value);
}

/** A new run was about to write into a folder that already holds rows. */
export class RunFolderNotEmptyError extends UserError {
  constructor(
    /** The run folder. */
    readonly dir: string,
    /** Its results.jsonl. */
    readonly resultsPath: string,
  ) {
    super(`${resultsPath} already holds rows: start a new run (a new run id), or resume this one`);
  }
}

/** The folder to list runs from is not a folder. */
export class RunsFolderNotFoundError extends UserError {
  constructor(readonly path: string) {
    super(
      `${path} is not a folder: pass the output folder that holds evals/ (./outputs unless the run named another), an evals folder, or a run folder`,
    );
  }
}

/** A named run cannot be resumed because its settings differ from the run asked for. */
export class ResumeSettingsMismatchError extends UserError {
  constructor(
    readonly dir: string,
    readonly mismatches: readonly SettingMismatch[],
  ) {
    super(
      `cannot resume ${dir}: its settings differ: ${describeMismatches(mismatches)}: rerun with the saved settings, or start a new run instead of resuming`,
    );
  }
}

/** Another live process is writing this run folder. */
export class RunLockedError extends UserError {
  constructor(
    readonly dir: string,
    /** The process that holds the lock. */
    readonly pid: number,
    /** The machine it runs on. */
    readonly host: string,
    /** When it took the lock, ISO 8601. */
    readonly since: string,
  ) {
    super(
      `${dir} is being written by process ${pid} on ${host} (since ${since}): wait for it to finish or stop it, then try again`,
    );
  }
}

/** The folder a run is saved in cannot be created or written. */
export class OutputFolderError extends UserError {
  constructor(
    /** The folder asked for. */
    readonly path: string,
    /** Why, in words. */
    readonly reason: string,
  ) {
    super(`cannot save into ${path}: ${reason}: choose a folder you can write`);
  }
}
