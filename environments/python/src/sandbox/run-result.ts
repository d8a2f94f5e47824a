/**
 * What one call into a sandbox gives back, and the JSON lines the worker (worker.py) sends.
 */
import { z } from "zod";

/** A line from the worker: ready, a call's answer, or a fault of the worker itself. */
export const WorkerAnswer = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready"), pid: z.number(), python: z.string() }),
  z.object({
    type: z.literal("ok"),
    output: z.string(),
    output_bytes: z.number(),
    /** Threads the code started that were still running when the call ended (at its time limit). */
    threads: z.number(),
  }),
  z.object({
    type: z.literal("error"),
    output: z.string(),
    output_bytes: z.number(),
    threads: z.number(),
    /** "ExceptionName: message". */
    error: z.string(),
    traceback: z.string(),
    /** Which limit the failure shows was hit, as a sentence; null for the code's own errors. */
    limit: z.string().nullable(),
  }),
  z.object({ type: z.literal("worker_error"), error: z.string() }),
]);
export type WorkerAnswer = z.infer<typeof WorkerAnswer>;

/** The result of running code in a sandbox. `ms` is the call's wall time as the host saw it. */
export type RunResult =
  /** The code ran to its end. `output` is its stdout and stderr (the worker keeps at most 64 KiB). */
  | { type: "ok"; output: string; outputBytes: number; ms: number }
  /** The code raised; the sandbox and its variables live on. */
  | {
      type: "error";
      output: string;
      outputBytes: number;
      error: string;
      traceback: string;
      limit: string | null;
      ms: number;
    }
  /** The call ran past its wall time; the sandbox was killed, its variables are gone. */
  | { type: "timeout"; timeoutSeconds: number; ms: number }
  /**
   * The code returned, but `threads` threads it started were still running when the call ended
   * (a call waits for its threads up to its time limit); the sandbox was killed with them, its
   * variables are gone. `output` is what the call printed.
   */
  | {
      type: "threads";
      output: string;
      outputBytes: number;
      threads: number;
      timeoutSeconds: number;
      ms: number;
    }
  /**
   * The code returned, but `processes` processes it started were still there after the call (the
   * worker's own clean-up, which the code can reach, did not end them); the sandbox was killed with
   * them, its variables are gone. `output` is what the call printed.
   */
  | { type: "processes"; output: string; outputBytes: number; processes: number; ms: number }
  /** The sandbox died during the call (or was closed); its variables are gone. */
  | { type: "crashed"; detail: string; ms: number };
