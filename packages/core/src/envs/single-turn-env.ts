/**
 * One model turn per rollout: the prompt goes in, the answer comes out, the rubric scores it.
 *
 * @example
 * const env = new SingleTurnEnv({
 *   dataset: Dataset.fromRows([{ question: "2+2?", answer: "4" }]),
 *   rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion).includes(answer)),
 * });
 */
import { EnvSettingsError } from "../errors.ts";
import type { Messages } from "../messages/message.ts";
import {
  type DataOptions,
  type EnvResponse,
  MultiTurnEnv,
  type MultiTurnEnvOptions,
} from "./multi-turn-env.ts";

/** Options of `SingleTurnEnv` (those of every environment). */
export type SingleTurnEnvOptions<Data> = Omit<MultiTurnEnvOptions<Data>, "maxTurns">;

/** One model reply per rollout, scored by the rubric. */
export class SingleTurnEnv<Data = Record<string, unknown>> extends MultiTurnEnv<Data> {
  constructor(options: SingleTurnEnvOptions<Data> & DataOptions<Data>) {
    super({ ...options, maxTurns: 1 });
  }

  override configure(settings: Record<string, unknown>): void {
    if ("max_turns" in settings)
      throw new EnvSettingsError(
        "a single-turn environment always has one turn: drop max_turns from the environment settings",
      );
    super.configure(settings);
  }

  protected envResponse(_messages: Messages): EnvResponse {
    // max_turns_reached always fires after the single model turn, so the loop never asks.
    throw new Error("a single-turn environment has no environment response");
  }
}
