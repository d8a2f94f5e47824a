/**
 * Which of a run's rollouts a run page lists: the terminal viewer's search (its text, messages, tool
 * calls, an agent's branches), then a reward range, errors only and one example id. Read from the
 * page's query string, so a filtered list is a URL one can share or reload.
 */
import { type LoadedRun, type RolloutRecord, readTrace } from "@vf-rl/core/results";
import { visibleRollouts } from "../rollout-list.ts";

export interface RolloutFilter {
  /** Text the rollout holds, case-insensitive ("" for any). */
  query: string;
  minReward: number | null;
  maxReward: number | null;
  errorsOnly: boolean;
  exampleId: number | null;
}

/** The filter a query string asks for; a blank or non-numeric bound is no bound. */
export function readFilter(params: URLSearchParams): RolloutFilter {
  return {
    query: params.get("q")?.trim() ?? "",
    minReward: numberParam(params.get("min")),
    maxReward: numberParam(params.get("max")),
    errorsOnly: params.get("errors") === "1",
    exampleId: numberParam(params.get("example")),
  };
}

/** The filter as query parameters (only those set), for links that keep it. */
export function filterParams(filter: RolloutFilter): Record<string, string> {
  const params: Record<string, string> = {};
  if (filter.query) params.q = filter.query;
  if (filter.minReward !== null) params.min = String(filter.minReward);
  if (filter.maxReward !== null) params.max = String(filter.maxReward);
  if (filter.exampleId !== null) params.example = String(filter.exampleId);
  if (filter.errorsOnly) params.errors = "1";
  return params;
}

/** Indices of the rollouts that pass, by example and rollout. */
export function filterRollouts(run: LoadedRun, filter: RolloutFilter): number[] {
  return visibleRollouts(run, filter.query).filter((i) => {
    const record = run.records[i]!;
    if (filter.minReward !== null && record.reward < filter.minReward) return false;
    if (filter.maxReward !== null && record.reward > filter.maxReward) return false;
    if (filter.exampleId !== null && record.example_id !== filter.exampleId) return false;
    return !filter.errorsOnly || failure(record) !== null;
  });
}

/** What went wrong on a rollout, in a word: its error, a raising reward function, its trace's first error. */
export function failure(record: RolloutRecord): string | null {
  if (record.error) return record.error.error;
  const scoring = record.scoring_errors[0];
  if (scoring) return `${scoring.function} raised`;
  const read = readTrace(record);
  if (read.type === "unreadable") return "trace unreadable";
  return read.type === "trace" ? (read.trace.errors[0]?.type ?? null) : null;
}

function numberParam(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
