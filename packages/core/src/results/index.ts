/** Results on disk: verifiers' layout, written incrementally, read from vf or verifiers, resumed, summarised. */

export {
  describeMismatches,
  ResumeSettingsMismatchError,
  RunFolderNotEmptyError,
  RunLockedError,
  RunsFolderNotFoundError,
} from "../errors.ts";
export { writeFileAtomic } from "./atomic-file.ts";
export { type CompletedRollouts, completedGroups, completedRollouts } from "./completed-groups.ts";
export { listRuns, type RunEntry, type RunListing, type UnreadableRun } from "./list-runs.ts";
export { makeFolder } from "./make-folder.ts";
export { needsRerun } from "./needs-rerun.ts";
export { computePassAtK, type PassAtK, type PassAtKOptions, passAllK, passAtK, passKs } from "./pass-at-k.ts";
export { type NothingToResume, type PlanResumeOptions, planResume, type ResumePlan } from "./plan-resume.ts";
export { type LoadedRecords, type LoadedRow, readRecordsFile } from "./read-records.ts";
export { type LoadedRun, readRun } from "./read-run.ts";
export { formatWarning, type ReadWarning } from "./read-warning.ts";
export { recordToLine } from "./record-line.ts";
export { repairTail, type TailRepair } from "./results-file.ts";
export {
  ResumeSettings,
  type RunIdentity,
  type SettingMismatch,
  settingsMismatches,
} from "./resume-settings.ts";
export * from "./rollout-record.ts";
export {
  envModelDirectory,
  METADATA_FILE,
  newRunId,
  RESULTS_FILE,
  type RunDirectoryOptions,
  runDirectory,
} from "./run-directory.ts";
export {
  acquireRunLock,
  LOCK_FILE,
  LockInfo,
  lockOwner,
  type OwnerState,
  ownerState,
  type RunLock,
} from "./run-lock.ts";
export * from "./run-metadata.ts";
export { RunWriter, type RunWriterOptions } from "./run-writer.ts";
export {
  describeSftSelection,
  type SftFilter,
  type SftSelection,
  selectSftConversations,
} from "./sft-selection.ts";
export {
  type RunAggregates,
  type RunSummary,
  type Spread,
  type SummarizeOptions,
  summarizeRun,
  type TimingPhase,
  type ValueRange,
} from "./summarize-run.ts";
