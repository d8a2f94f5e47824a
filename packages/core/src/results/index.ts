/**
 * @vf-rl/core/results: saved runs for the hosts that show, compare and train on them: listing and
 * reading runs (vf's and verifiers'), summarising them, and choosing rollouts for supervised
 * training. Writing runs is `evaluate`'s job (root export).
 */
export { writeFileAtomic } from "./atomic-file.ts";
export { listRuns, type RunEntry } from "./list-runs.ts";
export { makeFolder } from "./make-folder.ts";
export { needsRerun } from "./needs-rerun.ts";
export { readMetadata } from "./read-metadata.ts";
export { readRecordsFile } from "./read-records.ts";
export { type LoadedRun, readRun } from "./read-run.ts";
export { formatWarning } from "./read-warning.ts";
export { ErrorData, RolloutRecord, RolloutTiming, ScoringError, TrajectoryStep } from "./rollout-record.ts";
export { RunMetadata } from "./run-metadata.ts";
export {
  describeSftSelection,
  type SftFilter,
  selectSftConversations,
} from "./sft-selection.ts";
export { type RunSummary, summarizeRun } from "./summarize-run.ts";
