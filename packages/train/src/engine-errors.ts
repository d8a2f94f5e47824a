/**
 * The engine's errors as vf's. The engine depends on no package of ours, so it throws its own
 * `EngineError`s (a bad checkpoint, model config, batch or data file), each already saying what to
 * do; a vf command that runs the engine for a user reports them as the user errors they are.
 * This is the one place that mapping is written: train's run and inference, and the CLI's
 * `vf serve`, `vf trainer serve` and `vf sft` (through `@vf-rl/train/engine-errors`).
 */
import { UserError } from "@vf-rl/core/errors";
import { EngineError } from "@vf-rl/engine";

/**
 * vf's error for what the engine threw: a `UserError` with the same message (after `context: `
 * when given) and the engine's error as its cause; anything else is returned as it is.
 *
 * @example
 * try {
 *   trainer = await createLocalTrainer({ checkpoint });
 * } catch (error) {
 *   throw vfErrorOf(error, "model");
 * }
 */
export function vfErrorOf(error: unknown, context?: string): unknown {
  if (!(error instanceof EngineError)) return error;
  const message = context === undefined ? error.message : `${context}: ${error.message}`;
  return new UserError(message, { cause: error });
}
