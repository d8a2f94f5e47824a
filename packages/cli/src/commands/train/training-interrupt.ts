/**
 * Ctrl-C (or SIGTERM) during `vf train`: the first asks the run to stop after the step in progress
 * and write a checkpoint; a second quits at once (the newest checkpoint on disk stays whole).
 */
import type { Output } from "../../terminal/output.ts";

/** The stop signal of a run, and how to stop listening. */
export interface TrainingInterrupt {
  signal: AbortSignal;
  dispose(): void;
}

export function onTrainingInterrupt(io: Output): TrainingInterrupt {
  const controller = new AbortController();
  const handler = (): void => {
    if (controller.signal.aborted) process.exit(130);
    io.err("\nstopping after this step and writing a checkpoint (press Ctrl-C again to quit now)");
    controller.abort();
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
