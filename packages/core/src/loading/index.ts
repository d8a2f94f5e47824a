/** @vf-rl/core/loading: finding environment packages by id, reading their manifest, loading them. */
export { EnvManifest, EnvPackageJson } from "./env-manifest.ts";
export {
  type FindOptions,
  type FoundEnvironment,
  findEnvironment,
  listEnvironments,
  managedEnvironmentsDir,
  parseEnvId,
} from "./find-environment.ts";
export {
  entryFile,
  type LoadedEnvironment,
  type LoadOptions,
  loadEnvironmentById,
} from "./load-environment.ts";
