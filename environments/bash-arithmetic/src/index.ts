/**
 * bash-arithmetic: tool-arithmetic's problems (`What is 417 * 38 + 256?`) as a taskset for agents
 * with a shell. The agent is meant to run the expression through bash (`echo $((417 * 38 + 256))`)
 * and answer `The answer is \boxed{16102}`. Reward: 1 when the last `\boxed{}` of its last reply
 * holds the value, else 0. Metrics (weight 0): `bash_calls`, `num_turns`.
 *
 * It is made for `vf train` through the bash harness on the built-in model: `warmStartConversations`
 * are the scripted traces a warm start (`vf sft`) teaches it the harness's format with, and
 * `HARNESS_OPTIONS` the bash harness's options its configs run it with (configs/train/bash-arithmetic.toml).
 *
 * @example
 * const taskset = await loadTaskset({ numEval: 100 });
 * const [task] = await taskset.tasks({ split: "eval" });
 */
import { drawProblems } from "@vf-env/tool-arithmetic";
import { issueLines } from "@vf-rl/core/config";
import { EnvArgsError } from "@vf-rl/core/errors";
import { z } from "zod";
import { BashArithmeticTaskset, problemTask } from "./bash-arithmetic-taskset.ts";

export { BashArithmeticTaskset, finalReply, problemTask, SYSTEM_PROMPT } from "./bash-arithmetic-taskset.ts";
export {
  agentPrompt,
  BASH_TOOL,
  callingConversation,
  commandFor,
  directConversation,
  HARNESS_OPTIONS,
  toolResultFor,
} from "./warm-start.ts";
export { type WarmStartOptions, warmStartConversations } from "./warm-start-data.ts";

/** The arguments of `loadTaskset` (`vf eval bash-arithmetic -a '{...}'`). */
export const BashArithmeticArgs = z
  .object({
    /** Training problems. */
    numTrain: z.number().int().nonnegative().default(5000),
    /** Evaluation problems, none of them among the training ones. */
    numEval: z.number().int().positive().default(500),
    /** Seed of every problem's numbers (tool-arithmetic's problems of the same seed). */
    seed: z.number().int().default(0),
    /** Model calls per task: one to run the command, one to answer, one spare. */
    maxTurns: z.number().int().positive().default(3),
    /** Wall time of an agent's run, in seconds. */
    timeSeconds: z.number().positive().default(60),
  })
  .strict();
export type BashArithmeticArgs = z.infer<typeof BashArithmeticArgs>;

async function load(args: unknown = {}): Promise<BashArithmeticTaskset> {
  const parsed = BashArithmeticArgs.safeParse(args ?? {});
  if (!parsed.success) throw new EnvArgsError("bash-arithmetic", issueLines(parsed.error, "(args)"));
  const { numTrain, numEval, seed, maxTurns, timeSeconds } = parsed.data;
  const problems = drawProblems({ seed, numTrain, numEval });
  const limits = { maxTurns, timeSeconds };
  return new BashArithmeticTaskset({
    train: problems.train.map((problem, i) => problemTask(problem, "train", i, limits)),
    eval: problems.eval.map((problem, i) => problemTask(problem, "eval", i, limits)),
  });
}

/**
 * Loads the taskset (the entry vf finds through package.json's `"vf": { "kind": "taskset" }`); bad
 * arguments are an `EnvArgsError` naming the field. See `BashArithmeticArgs` for the arguments.
 */
export const loadTaskset = Object.assign(load, { argsSchema: BashArithmeticArgs });
