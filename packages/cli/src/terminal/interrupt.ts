/**
 * Ctrl-C during a long command: the first press asks the command to stop cleanly (finished work is
 * kept and saved); a second press exits at once.
 */
import type { Output } from "./output.ts";

export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

export function onInterrupt(io: Output): Interrupt {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
    io.err("\nstopping: keeping finished rollouts (press Ctrl-C again to quit now)");
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
