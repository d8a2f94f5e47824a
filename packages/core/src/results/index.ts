/**
 * @vf-rl/core/results: saved runs for the hosts that show, compare and train on them: listing and
 * reading runs (vf's and verifiers'), summarising them, and choosing rollouts for supervised
 * training. Writing runs is `evaluate`'s job (root export). Core's layers, bottom up: records/ (a
 * rollout record and run metadata, and verifiers' saved shapes of them), metrics/ (a run's numbers:
 * pass@k, averages), results/ (runs on disk: writing, locking, reading, resuming, listing).
 */

export { type RunSummary, summarizeRun } from "../metrics/summarize-run.ts";
export {
  ErrorData,
  RolloutRecord,
  RolloutTiming,
  ScoringError,
  TrajectoryStep,
} from "../records/rollout-record.ts";
export { RunMetadata } from "../records/run-metadata.ts";
export { writeFileAtomic } from "./atomic-file.ts";
export { listRuns, type RunEntry } from "./list-runs.ts";
export { makeFolder } from "./make-folder.ts";
export { needsRerun } from "./needs-rerun.ts";
export { readMetadata } from "./read-metadata.ts";
export { readRecordsFile } from "./read-records.ts";
export { type LoadedRun, readRun } from "./read-run.ts";
export { formatWarning } from "./read-warning.ts";
export {
  readTrace,
  SavedCall,
  SavedToolResultEdit,
  SavedTrace,
  sentMessages,
} from "./saved-trace.ts";
export {
  describeSftSelection,
  type SftFilter,
  selectSftConversations,
} from "./sft-selection.ts";
export {
  recordBranches,
  type TraceBranches,
  traceBranches,
} from "./trace-branches.ts";
