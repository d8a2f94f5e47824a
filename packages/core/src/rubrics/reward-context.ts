/**
 * The one typed argument every reward function and metric receives. Functions are never inspected
 * for their parameter names or arity; a group function is declared as one when it is added.
 */
import type { Messages } from "../messages/message.ts";
import type { Parser } from "../parsers/parser.ts";
import type { Info, RolloutState } from "../rollout/rollout-state.ts";

/** What every reward function gets: prompt, completion, answer, info, state and parser of one rollout. */
export interface RewardContext<Data = Record<string, unknown>> {
  prompt: Messages;
  completion: Messages;
  answer: string;
  info: Info;
  task: string;
  exampleId: number;
  /** The rollout's whole state; functions run in order, so earlier ones may leave notes in `state.data`. */
  state: RolloutState<Data>;
  /** The rubric's parser. */
  parser: Parser;
}

/** Scores one rollout. A throw or a non-finite result scores 0 and is recorded as a scoring error. */
export type RewardFn<Data = Record<string, unknown>> = (
  ctx: RewardContext<Data>,
) => number | boolean | Promise<number | boolean>;

/** Scores a whole group (all rollouts of one example) at once: one number per rollout, in order. */
export type GroupRewardFn<Data = Record<string, unknown>> = (
  group: RewardContext<Data>[],
) => number[] | Promise<number[]>;

export function rewardContext<Data>(state: RolloutState<Data>, parser: Parser): RewardContext<Data> {
  return {
    prompt: state.prompt,
    completion: state.completion,
    answer: state.answer,
    info: state.info,
    task: state.task,
    exampleId: state.exampleId,
    state,
    parser,
  };
}
