/**
 * Ctrl-C (or SIGTERM) in a command: during a long one, the first asks it to stop cleanly (finished
 * work is kept and saved) and a second exits at once with 130; a server command waits for the first
 * to close down.
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

/**
 * Resolves at the first Ctrl-C (or SIGTERM): what a server command (`vf serve`, `vf trainer serve`,
 * `vf hub serve`) waits for before it closes its server.
 */
export function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
