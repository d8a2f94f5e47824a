/**
 * @vf-rl/core/checks: checks that need no model. Re-scoring a saved run with the environment's
 * current rubric (`vf eval rescore`), and validating every row of an environment or task of a
 * taskset (`vf eval validate`): it loads, its prompt renders and fits, its reference scores the maximum.
 */
export type { ValueChange } from "./rescore-diff.ts";
export {
  type RescoreOptions,
  type RescoreResult,
  rescoreRun,
} from "./rescore-run.ts";
export { type ValidateOptions, validateEnvironment } from "./validate-environment.ts";
export { validateTaskset } from "./validate-taskset.ts";
export { groupFailures, type ValidationReport } from "./validation-report.ts";
