/**
 * The engine's errors as vf's. The engine depends on no package of ours, so it throws its own
 * `EngineError`s (a bad checkpoint, model config or batch, a trainer server's refusal or failure),
 * each already saying what to do; a vf command that runs the engine for a user reports them as the
 * vf errors they are. This is the one place that mapping is written: train's run, its trainer over
 * HTTP and its inference, supervised fine-tuning (`vf sft`), and the CLI's `vf serve` and
 * `vf trainer serve` (through `@vf-rl/train/engine-errors`).
 */
import { SystemError, UserError } from "@vf-rl/core/errors";
import { EngineError, TrainerUnavailableError } from "@vf-rl/engine";

/**
 * vf's error for what the engine threw: a `UserError` with the same message (after `context: `
 * when given) and the engine's error as its cause, except a trainer server that cannot be reached or
 * failed, a `SystemError`; anything else is returned as it is.
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
  if (error instanceof TrainerUnavailableError) return new SystemError(message, { cause: error });
  return new UserError(message, { cause: error });
}
