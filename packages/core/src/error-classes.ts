/**
 * @vf-rl/core/errors: every error class vf's core throws, the one place to import them from. Authors
 * catch them (a tool's `stopErrors`, a reward's own failures); hosts tell them apart to add a hint
 * (a flag, a config key) or to report a user's mistake in one line. It loads nothing but the
 * classes, so a command line can import it at start-up and the Hub without the model SDKs. The root
 * export (`@vf-rl/core`) re-exports this list whole.
 */

export {
  NotRescorableError,
  OfflineModelCallError,
  UnsavedStateError,
} from "./checks/check-errors.ts";
export { ReferenceExhaustedError } from "./checks/reference-client.ts";
export { WorkdirNotSavedError } from "./checks/rescore-taskset.ts";
export { CacheMissError } from "./client/cache-miss-error.ts";
export {
  ApiKeyRejectedError,
  FatalModelError,
  ModelNotFoundError,
  QuotaExhaustedError,
  RunStoppedError,
} from "./client/fatal-model-error.ts";
export {
  AuthoringError,
  CancelledError,
  ConfigError,
  DatasetError,
  DuplicateMetricError,
  EmptyModelResponseError,
  EndpointRegistryUnreadableError,
  EndpointUnreachableError,
  EnvArgsError,
  EnvironmentNotFoundError,
  EnvironmentNotInstalledError,
  EnvResponseError,
  EnvSettingsError,
  GroupScoringRequiredError,
  HarnessError,
  InfraError,
  InvalidModelResponseError,
  isVfError,
  McpServerError,
  McpToolError,
  MissingKeyError,
  MissingPackageError,
  ModelEndpointUnknownError,
  ModelError,
  ModelHttpError,
  OutputFolderError,
  OverlongPromptError,
  ResumeSettingsMismatchError,
  RolloutError,
  RunFolderNotEmptyError,
  RunLockedError,
  RunsFolderNotFoundError,
  SamplingArgsError,
  SandboxError,
  SystemError,
  TasksetScoreError,
  TasksetToolsError,
  ToolCallError,
  ToolError,
  ToolParseError,
  UserError,
  VfError,
} from "./errors.ts";
export { ForeignRunError } from "./results/foreign-run.ts";
export { UnreadableLockError } from "./results/run-lock.ts";
