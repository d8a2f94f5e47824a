/**
 * Scoring a completion with an environment's rubric, without a model or a rollout: how an
 * environment's tests check that a right answer earns the reward and a wrong one does not.
 */
import type { Environment } from "../envs/environment.ts";
import type { Messages } from "../messages/message.ts";
import type { RolloutInput } from "../rollout/rollout-state.ts";
import { createState } from "../rollout/rollout-state.ts";
import type { Score } from "../rubrics/scorer.ts";

/**
 * The rubric's reward, metrics and scoring errors for `completion` as the answer to `input`, its
 * state's data empty.
 *
 * @example
 * const [input] = (await env.inputs({ split: "eval" })).inputs;
 * expect((await scoreCompletion(env, input!, [{ role: "assistant", content: "\\boxed{72}" }])).reward).toBe(1);
 */
export async function scoreCompletion(
  env: Environment,
  input: RolloutInput,
  completion: Messages,
): Promise<Score> {
  const state = createState<Record<string, unknown>>(input, {
    model: "test",
    sampling: {},
    toolDefs: [],
    signal: new AbortController().signal,
    data: {},
  });
  state.completion = completion;
  const [score] = await env.rubric.compute([state]);
  return score!;
}
