/**
 * The alphabet-sort conversation: a scripted user gives names over several turns, and after each
 * model reply asks to add the next names, until every turn of the row has been answered.
 */
import {
  type EnvResponse,
  type Messages,
  MultiTurnEnv,
  type MultiTurnEnvOptions,
  type RolloutState,
} from "@vf-rl/core";
import { type TurnNames, turnNamesOf, userPrompt } from "./sort-task.ts";

/** Per-rollout state: the row's names per turn. */
export interface SortData {
  turns: TurnNames;
}

/** A multi-turn environment whose user replays the row's `info.turn_names`, one turn at a time. */
export class AlphabetSortEnv extends MultiTurnEnv<SortData> {
  constructor(options: Omit<MultiTurnEnvOptions<SortData>, "initialData">) {
    super({ ...options, initialData: (input) => ({ turns: turnNamesOf(input.info) }) });
    this.addStopCondition("all_turns_answered", (state) => state.turns.length >= state.data.turns.length);
  }

  protected envResponse(_messages: Messages, state: RolloutState<SortData>): EnvResponse {
    // Called only while turns remain, so the model has answered turns 0..k-1 and turn k comes next.
    return [{ role: "user", content: userPrompt(state.data.turns, state.turns.length) }];
  }
}
