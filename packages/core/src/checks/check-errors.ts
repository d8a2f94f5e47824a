/**
 * The errors of offline checks: re-scoring a saved run and validating an environment without a
 * model. The first two are recorded on a rollout as scoring errors (the function that met them
 * scores 0 and is named), the last ends `vf eval rescore` with one line.
 */
import { UserError } from "../errors.ts";

/** A reward function read a key of the rollout's state that the saved run did not keep. */
export class UnsavedStateError extends UserError {
  constructor(
    /** The key of `state.data` the function read. */
    readonly key: string,
  ) {
    super(
      `state "${key}" was not saved with this run, so it cannot be re-scored offline: save it next time with -C ${key}`,
    );
  }
}

/** A reward function asked a model (a judge) while scoring offline. */
export class OfflineModelCallError extends UserError {
  constructor(
    /** The model the function asked for. */
    readonly model: string,
  ) {
    super(
      `this reward asks the model ${model}, and re-scoring is offline: re-run the evaluation to score it with the judge`,
    );
  }
}

/** A saved run that cannot be scored again offline (an agent's, scored in its working folder). */
export class NotRescorableError extends UserError {}
