/**
 * Saved agent rows of a taskset scored again offline, for a taskset that scores from the agent's
 * trace alone (its final reply, its calls): each row's task (by id, the row's `task`) is scored
 * with the saved trace and a runtime that holds nothing, since the working folder is not saved. A
 * taskset that reads that folder (a coding task's hidden tests) meets `WorkdirNotSavedError` on its
 * first row, and the rescore stops there with one line: it cannot be re-scored offline.
 */
import type { AgentTask } from "../agents/agent-task.ts";
import type { AgentTrace } from "../agents/agent-trace.ts";
import type { Runtime } from "../agents/runtime.ts";
import type { Taskset } from "../agents/taskset.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import { errorData } from "../rollout/rollout-state.ts";
import { NotRescorableError } from "./check-errors.ts";

/** The agent's working folder was asked for, and a saved run does not keep it. */
export class WorkdirNotSavedError extends NotRescorableError {
  constructor(readonly tasksetId: string) {
    super(
      `the taskset ${tasksetId} scores the agent's working folder, which a saved run does not keep, so its runs cannot be re-scored offline: run the evaluation again to score it again`,
    );
  }
}

/** A runtime for scoring a saved trace: every use of the working folder is a `WorkdirNotSavedError`. */
function savedRuntime(tasksetId: string): Runtime {
  const refuse = async (): Promise<never> => {
    throw new WorkdirNotSavedError(tasksetId);
  };
  return { workdir: "", exec: refuse, readFile: refuse, writeFile: refuse, close: async () => {} };
}

/** Each saved agent row scored again by `taskset` from its trace; see the file comment. */
export async function rescoreTasksetRecords(
  taskset: Taskset,
  records: readonly RolloutRecord[],
): Promise<RolloutRecord[]> {
  const tasks = new Map<string, AgentTask>();
  for (const split of ["train", "eval"] as const) {
    for (const task of await taskset.tasks({ split })) tasks.set(task.id, task);
  }
  const runtime = savedRuntime(taskset.id);
  const rescored: RolloutRecord[] = [];
  for (const record of records) {
    const task = tasks.get(record.task);
    if (!record.trace || !task) {
      const why = !record.trace ? "it has no agent trace" : `the taskset has no task "${record.task}" now`;
      rescored.push(failed(record, new NotRescorableError(`row ${record.example_id}: ${why}`)));
      continue;
    }
    const started = performance.now();
    try {
      const trace = record.trace as unknown as AgentTrace;
      const score = await taskset.score({ task, trace, runtime });
      // The environment's own measure of the rollout (num_turns) is kept as saved.
      const own: Record<string, number> =
        record.metrics.num_turns !== undefined ? { num_turns: record.metrics.num_turns } : {};
      rescored.push({
        ...record,
        reward: score.reward,
        metrics: { ...score.metrics, ...own },
        scoring_errors: [],
        ...(record.timing ? { timing: { ...record.timing, scoring_ms: performance.now() - started } } : {}),
      });
    } catch (error) {
      if (error instanceof WorkdirNotSavedError) throw error;
      rescored.push(failed(record, error));
    }
  }
  return rescored;
}

/** The row scored 0 with the taskset's failure recorded as its scoring error. */
function failed(record: RolloutRecord, error: unknown): RolloutRecord {
  const metrics = Object.fromEntries(Object.keys(record.metrics).map((name) => [name, 0]));
  return { ...record, reward: 0, metrics, scoring_errors: [{ function: "score", error: errorData(error) }] };
}
