/**
 * @vf-rl/core/errors: the error classes a host tells apart, to add its own hint (a flag, a config
 * key) or to report a user's mistake in one line. It loads nothing but the classes, so a command
 * line can import it at start-up.
 */
export { ApiKeyRejectedError, ModelNotFoundError } from "./client/fatal-model-error.ts";
export {
  CancelledError,
  EndpointRegistryUnreadableError,
  EndpointUnreachableError,
  EnvArgsError,
  EnvironmentNotFoundError,
  EnvSettingsError,
  GroupScoringRequiredError,
  isVfError,
  MissingKeyError,
  ModelEndpointUnknownError,
  OutputFolderError,
  OverlongPromptError,
  ResumeSettingsMismatchError,
  RunFolderNotEmptyError,
  RunLockedError,
  RunsFolderNotFoundError,
  SamplingArgsError,
  SystemError,
  UserError,
  VfError,
} from "./errors.ts";
