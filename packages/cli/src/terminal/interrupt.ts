/**
 * Ctrl-C (or SIGTERM) during a long command: the first asks the command to stop cleanly (finished
 * work is kept and saved); a second exits at once with 130.
 */
import type { Output } from "./output.ts";

export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

/** `stopping` is what the first press prints: what the command does before it exits. */
export function onInterrupt(io: Output, stopping = "stopping: keeping finished rollouts"): Interrupt {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
    io.err(`\n${stopping} (press Ctrl-C again to quit now)`);
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
