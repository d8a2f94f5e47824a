/**
 * @vf-rl/hub/client: what `vf login`, `vf whoami`, `vf env ...` and `vf eval push` call. Each function
 * takes an options object with a `HubClient` and returns data; none prints.
 */

export { HubErrorCode } from "../api/error-code.ts";
export { HubError } from "../hub-error.ts";
export { type EnvSpec, parseEnvSpec } from "./env-spec.ts";
export { HubClient, type HubClientOptions } from "./hub-client.ts";
export {
  DEFAULT_HUB_URL,
  HubConfig,
  type HubTarget,
  hubConfigPath,
  readHubConfig,
  resolveHubTarget,
  writeHubConfig,
} from "./hub-config.ts";
export {
  findProjectRoot,
  type InstallOptions,
  type InstallResult,
  installEnvironment,
} from "./install-environment.ts";
export {
  type BrowserLoginOptions,
  type LoginResult,
  loginWithBrowser,
  loginWithKey,
  logout,
} from "./login.ts";
export { globToRegExp, InstallError, npmRoot, runNpm } from "./npm-project.ts";
export { type PullOptions, pullEnvironment } from "./pull-environment.ts";
export { type PushOptions, type PushOutcome, pushEnvironment, rewriteVersion } from "./push-environment.ts";
export { type PushReportOptions, type PushReportResult, pushReport } from "./push-report.ts";
export {
  type UninstallOptions,
  type UninstallResult,
  uninstallEnvironment,
} from "./uninstall-environment.ts";
export { downloadVerified, type VerifiedPackage } from "./verified-download.ts";
