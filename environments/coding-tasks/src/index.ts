/**
 * coding-tasks: a taskset for coding agents, shipped offline. Small JavaScript (node:test) and
 * Python (unittest) repositories, each with a bug that its prompt describes as a user's issue and
 * hidden tests that check the agent's fix, and questions about files whose answer the agent writes
 * to `answer.txt`. Reward: 1 when every hidden test passes (or the answer is right), else 0.
 * Metrics (weight 0): `checks_passed`, `checks_timed_out`, `checks_crashed` (see CodingTaskset).
 *
 * @example
 * const taskset = await loadTaskset({ languages: ["python"], numEval: 2 });
 * const [task] = await taskset.tasks({ split: "eval" });
 * // ... an agent works on task.files in a runtime, then:
 * const { reward } = await taskset.score({ task, trace, runtime });
 */
import { issueLines } from "@vf-rl/core/config";
import { EnvArgsError, UserError } from "@vf-rl/core/errors";
import { z } from "zod";
import { CATALOG, catalogTasks, Language, type Split } from "./catalog.ts";
import { CodingTaskset, type LoadedTask } from "./coding-taskset.ts";
import { readTaskFolder } from "./task-folder.ts";

export { answerMatches } from "./answer-file.ts";
export { CATALOG, type CatalogEntry, Language, type Split, type TaskCheck } from "./catalog.ts";
export { CodingTaskset, type CodingTasksetOptions, type LoadedTask } from "./coding-taskset.ts";

const SPLIT_SIZES = { numTrain: "train", numEval: "eval" } as const satisfies Record<string, Split>;

/** The arguments of `loadTaskset`. */
export const CodingTasksArgs = z
  .object({
    /** Training tasks: the split's first ones; default all of them. */
    numTrain: z.number().int().positive().optional(),
    /** Evaluation tasks: the split's first ones; default all of them. */
    numEval: z.number().int().positive().optional(),
    /** The languages of the tasks; default both. */
    languages: z.array(Language).min(1).default(["javascript", "python"]),
    /** Reward the fraction of hidden tests passed instead of 1 only when all pass; default false. */
    partialCredit: z.boolean().default(false),
    /** Time for a task's hidden tests, in seconds; default 60. */
    testTimeoutSeconds: z.number().positive().max(3600).default(60),
    /** Model calls an agent may make per task; default 30. */
    maxTurns: z.number().int().positive().default(30),
    /** Wall time of an agent's run, in seconds; default 600. */
    timeSeconds: z.number().positive().default(600),
  })
  .strict()
  .superRefine((args, context) => {
    for (const [key, split] of Object.entries(SPLIT_SIZES)) {
      const asked = args[key as keyof typeof SPLIT_SIZES];
      const available = catalogTasks(split, args.languages).length;
      if (asked !== undefined && asked > available) {
        context.addIssue({
          code: "custom",
          path: [key],
          message: `${asked} is more than the ${available} ${split} tasks in ${args.languages.join(" and ")}: ask for ${available} or fewer, or leave it out for all`,
        });
      }
    }
  });
export type CodingTasksArgs = z.infer<typeof CodingTasksArgs>;

async function load(args: unknown = {}): Promise<CodingTaskset> {
  const parsed = CodingTasksArgs.safeParse(args ?? {});
  if (!parsed.success) throw new EnvArgsError("coding-tasks", issueLines(parsed.error, "(args)"));
  const { numTrain, numEval, languages, partialCredit, testTimeoutSeconds, maxTurns, timeSeconds } =
    parsed.data;
  const read = async (split: Split, count: number | undefined): Promise<LoadedTask[]> =>
    Promise.all(
      catalogTasks(split, languages)
        .slice(0, count)
        .map(async (entry) => ({ entry, folder: await readTaskFolder(entry.id) })),
    );
  const [train, evaluation] = await Promise.all([read("train", numTrain), read("eval", numEval)]);
  return new CodingTaskset({
    splits: { train, eval: evaluation },
    partialCredit,
    testTimeoutSeconds,
    limits: { timeSeconds, maxTurns },
  });
}

/**
 * Loads the coding taskset (the entry vf finds through package.json's `"vf": { "kind": "taskset" }`);
 * bad arguments are an `EnvArgsError` naming the field. See `CodingTasksArgs` for the arguments.
 */
export const loadTaskset = Object.assign(load, { argsSchema: CodingTasksArgs });

/**
 * The files of a task's reference fix, by path in its working folder (for an answer-file task,
 * the answer file): written over the task's files, they score 1.
 */
export async function referenceFix(taskId: string): Promise<Record<string, string>> {
  if (!CATALOG.some((entry) => entry.id === taskId)) {
    throw new UserError(
      `"${taskId}" is not a coding task: name one of ${CATALOG.map((entry) => entry.id).join(", ")}`,
    );
  }
  return (await readTaskFolder(taskId)).fix;
}
