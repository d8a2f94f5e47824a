/**
 * What `vf env push` checks before it sends anything: the package loads as vf would load it, so a
 * syntax error, a missing import or a missing export is caught here rather than by everyone who
 * installs it. An environment (the default kind) must export `loadEnvironment` and return an
 * Environment; a taskset (`"kind": "taskset"`) must export `loadTaskset` and its tasks must load: at
 * least one in its train and eval splits together, each a valid task. A package that demands
 * arguments has loaded far enough: its schema answered.
 */
import type { Taskset } from "@vf-rl/core/agents";
import { EnvArgsError, UserError } from "@vf-rl/core/errors";

/** Throws a one-line `UserError` when the package in `folder` does not load; see the file comment. */
export async function checkLoads(folder: string): Promise<void> {
  const { findEnvironment, loadEnvironmentById, loadTaskset } = await import("@vf-rl/core/loading");
  try {
    const found = findEnvironment(folder);
    if (found.packageJson.vf.kind === "taskset") {
      const { taskset, id } = await loadTaskset(found);
      await checkTasks(id, taskset);
    } else {
      await loadEnvironmentById(folder);
    }
  } catch (error) {
    if (error instanceof EnvArgsError) return;
    // Transform and syntax errors span lines (a code frame); the refusal is one line.
    const detail = (error instanceof Error ? error.message : String(error))
      .replace(/\s*\n\s*/g, " ")
      .replace(/^cannot load (environment|taskset) "[^"]*" from /, "")
      .trim();
    throw new UserError(
      `cannot push ${folder}: it does not load (${detail}): fix it, or push anyway with --no-load-check`,
    );
  }
}

/** Loads both splits' tasks and checks each is a task; throws naming the first that is not. */
async function checkTasks(id: string, taskset: Taskset): Promise<void> {
  const { AgentTask } = await import("@vf-rl/core/agents");
  let count = 0;
  for (const split of ["train", "eval"] as const) {
    const tasks: unknown[] = await taskset.tasks({ split });
    for (const [i, task] of tasks.entries()) {
      const parsed = AgentTask.safeParse(task);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.join(".") || "(the task)";
        throw new UserError(
          `taskset "${id}": ${split} task ${i} is not a task (${field}: ${issue.message}): return tasks built with AgentTask.parse`,
        );
      }
    }
    count += tasks.length;
  }
  if (count === 0) {
    throw new UserError(`taskset "${id}" gives no tasks in its train or eval split: give it some`);
  }
}
