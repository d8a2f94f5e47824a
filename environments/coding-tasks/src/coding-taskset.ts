/**
 * The coding taskset: each task a small repository with a bug described as a user would, or files
 * with a question to answer in a file. `score` runs the task's hidden tests in the runtime the
 * agent left (or reads its answer file) and gives 1 when every check passes, else 0 (or the
 * fraction passed, with partial credit). It holds only its configuration: one object scores any
 * number of rollouts at once.
 */
import { type AgentScore, type AgentScoreContext, AgentTask, type Taskset } from "@vf-rl/core/agents";
import { SystemError, UserError } from "@vf-rl/core/errors";
import { answerMatches } from "./answer-file.ts";
import type { CatalogEntry, Language, Split } from "./catalog.ts";
import { runHiddenTests } from "./hidden-tests.ts";
import type { TaskFolder } from "./task-folder.ts";

/** A task of the catalog with its folder read. */
export interface LoadedTask {
  entry: CatalogEntry;
  folder: TaskFolder;
}

/** What a `CodingTaskset` is made with (`loadTaskset` makes it from its arguments). */
export interface CodingTasksetOptions {
  /** The tasks of each split, in the order `tasks` yields them. */
  splits: Record<Split, LoadedTask[]>;
  /** Reward the fraction of checks passed instead of 1 only when all pass. */
  partialCredit: boolean;
  /** Time for a task's hidden tests, in seconds. */
  testTimeoutSeconds: number;
  /** Each task's limits. */
  limits: { timeSeconds: number; maxTurns: number };
}

const HOW_TO_TEST: Record<Language, string> = {
  javascript: "`node --test`",
  python: "`python3 -m unittest`",
};

/** The user's message: the issue, and where the files are. */
export function promptText(task: LoadedTask): string {
  const { entry, folder } = task;
  if (entry.check.type === "answer-file") return `${folder.issue}\n\nThe files are in your working folder.`;
  return [
    folder.issue,
    "",
    `The repository is in your working folder. Fix the bug in its code and leave its tests as they are; they run with ${HOW_TO_TEST[entry.language]}. Tests you do not see will check your fix.`,
  ].join("\n");
}

/** The coding taskset; see the file comment. */
export class CodingTaskset implements Taskset {
  readonly id = "coding-tasks";
  readonly #options: CodingTasksetOptions;
  readonly #byId: Map<string, LoadedTask>;

  constructor(options: CodingTasksetOptions) {
    this.#options = options;
    this.#byId = new Map([...options.splits.train, ...options.splits.eval].map((t) => [t.entry.id, t]));
  }

  /** The split's tasks in catalog order; the first `numExamples` when given (all when negative). */
  async tasks(options: { split: Split; numExamples?: number }): Promise<AgentTask[]> {
    const all = this.#options.splits[options.split];
    const count =
      options.numExamples === undefined || options.numExamples < 0 ? all.length : options.numExamples;
    return all.slice(0, count).map((task, exampleId) =>
      AgentTask.parse({
        id: task.entry.id,
        exampleId,
        prompt: [{ role: "user", content: promptText(task) }],
        answer: task.entry.check.type === "answer-file" ? referenceAnswer(task) : "",
        info: { language: task.entry.language, kind: task.entry.kind, check: task.entry.check.type },
        files: task.folder.repo,
        limits: this.#options.limits,
      }),
    );
  }

  /** The task's reference fix (its `fix/` folder), which scores 1 (`vf eval validate` checks it). */
  async referenceFiles(task: AgentTask): Promise<Record<string, string>> {
    return this.#loaded(task).folder.fix;
  }

  /**
   * Runs the task's hidden tests in `runtime` (or reads its answer file). Metrics: `checks_passed`
   * (the fraction of hidden tests passed; 1 or 0 for an answer), `checks_timed_out` and
   * `checks_crashed` (1 when the tests ran past their time, or ended without a report).
   */
  async score({ task, runtime }: AgentScoreContext): Promise<AgentScore> {
    const loaded = this.#loaded(task);
    const { check } = loaded.entry;
    let outcome = { tests: 1, passed: 0, timedOut: false, crashed: false };
    if (check.type === "hidden-tests") {
      outcome = await runHiddenTests(runtime, {
        language: loaded.entry.language,
        files: loaded.folder.hidden,
        timeoutMs: this.#options.testTimeoutSeconds * 1000,
      });
    } else {
      const written = await runtime.readFile(check.path);
      if (written !== null && answerMatches(written, referenceAnswer(loaded))) outcome.passed = 1;
    }
    const fraction = outcome.tests > 0 ? Math.min(1, outcome.passed / outcome.tests) : 0;
    return {
      reward: this.#options.partialCredit ? fraction : fraction === 1 ? 1 : 0,
      metrics: {
        checks_passed: fraction,
        checks_timed_out: outcome.timedOut ? 1 : 0,
        checks_crashed: outcome.crashed ? 1 : 0,
      },
    };
  }

  /** The task as loaded, by its id; a task of another taskset is a UserError. */
  #loaded(task: AgentTask): LoadedTask {
    const loaded = this.#byId.get(task.id);
    if (!loaded) {
      throw new UserError(
        `task "${task.id}" is not a task of this coding-tasks taskset (${[...this.#byId.keys()].join(", ")}): score the tasks its tasks() gave`,
      );
    }
    return loaded;
  }
}

/** The answer an answer-file task expects: its reference fix's answer file. */
function referenceAnswer(task: LoadedTask): string {
  const { check } = task.entry;
  const path = check.type === "answer-file" ? check.path : "answer.txt";
  const answer = task.folder.fix[path];
  if (answer === undefined) {
    throw new SystemError(
      `task ${task.entry.id} has no reference answer: add tasks/${task.entry.id}/fix/${path}`,
    );
  }
  return answer.trim();
}
