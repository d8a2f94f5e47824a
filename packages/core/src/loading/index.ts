/**
 * @vf-rl/core/loading: finding environment packages by id, reading their manifest, loading them
 * (and taskset packages, `"kind": "taskset"`), finding what an installed package ships by its path,
 * starting a child process on a module that is TypeScript from source and JavaScript built, and
 * importing an optional package with a one-line install hint when it is missing.
 */
export { importOptional } from "../optional-package.ts";
export { EnvPackageJson } from "./env-manifest.ts";
export {
  type FoundEnvironment,
  findEnvironment,
  findPackagePath,
  listEnvironments,
  managedEnvironmentsDir,
  packageNameOf,
} from "./find-environment.ts";
export { loadEnvironmentById } from "./load-environment.ts";
export { loadTaskset } from "./load-taskset.ts";
export { type NodeCommand, nodeCommand } from "./node-command.ts";
