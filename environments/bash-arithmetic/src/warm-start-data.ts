/**
 * The warm start's conversations (see warm-start.ts): training problems of the taskset, a share of
 * them answered by running the command and the rest answered at once, in an order fixed by the seed.
 */
import { drawProblems } from "@vf-env/tool-arithmetic";
import { problemTask } from "./bash-arithmetic-taskset.ts";
import { callingConversation, directConversation } from "./warm-start.ts";

/** Options of `warmStartConversations`. */
export interface WarmStartOptions {
  /** Conversations. */
  count: number;
  /** Share of them that run the command (default 0.25, as the built-in model's habit phase). */
  callShare?: number;
  /** Seed of the problems (the taskset's `seed`; default 0). */
  seed?: number;
}

/**
 * `count` conversations from the taskset's first training problems; every `1 / callShare`th one
 * runs the command (evenly spread, so any prefix has the same share).
 */
export function warmStartConversations(options: WarmStartOptions) {
  const share = options.callShare ?? 0.25;
  const { train } = drawProblems({ seed: options.seed ?? 0, numTrain: options.count, numEval: 500 });
  const limits = { maxTurns: 3, timeSeconds: 60 };
  return train.map((problem, i) => {
    const { prompt } = problemTask(problem, "train", i, limits);
    const calls = Math.floor((i + 1) * share) > Math.floor(i * share);
    return calls ? callingConversation(prompt, problem) : directConversation(prompt, problem);
  });
}
