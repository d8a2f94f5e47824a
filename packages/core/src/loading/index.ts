/** @vf-rl/core/loading: finding environment packages by id, reading their manifest, loading them. */
export { EnvPackageJson } from "./env-manifest.ts";
export {
  type FoundEnvironment,
  findEnvironment,
  listEnvironments,
  managedEnvironmentsDir,
} from "./find-environment.ts";
export { loadEnvironmentById } from "./load-environment.ts";
