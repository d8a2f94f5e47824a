/** @vf-rl/core/loading: finding environment packages by id, reading their manifest, loading them. */
export { EnvPackageJson } from "./env-manifest.ts";
export {
  type FindOptions,
  type FoundEnvironment,
  findEnvironment,
  listEnvironments,
  managedEnvironmentsDir,
} from "./find-environment.ts";
export { type LoadedEnvironment, type LoadOptions, loadEnvironmentById } from "./load-environment.ts";
