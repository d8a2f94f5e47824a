/**
 * One agent rollout, start to end: the task is registered with the interception server (the
 * model's client, the run's sampling, the task's limits), a runtime is made with the task's files,
 * the harness runs the agent in it against the rollout's endpoint until it ends or its time is up,
 * the trace is ended, the taskset scores what the agent left (the runtime still open), and the
 * runtime is closed. Expected failures are data: a runtime that would not start, a harness that
 * crashed or outlived its time, a score that threw and a runtime that would not close are each
 * recorded in `failures`, and the rollout still returns its trace. Only a cancel (the caller's
 * signal) and bugs throw.
 *
 * @example
 * const server = await startInterceptionServer();
 * const rollout = await runAgentRollout({ task, taskset, harness, runtimes: subprocessRuntime(), server, client, model });
 * console.log(rollout.score?.reward, rollout.trace.calls.length);
 */
import type { ModelClient, SamplingArgs } from "../client/model-client.ts";
import { CancelledError, HarnessError, TasksetScoreError, TasksetToolsError } from "../errors.ts";
import type { AgentTask } from "./agent-task.ts";
import type { AgentStop, AgentTrace } from "./agent-trace.ts";
import type { Harness, HarnessResult } from "./harness.ts";
import type { InterceptionServer } from "./interception-server.ts";
import type { Runtime, RuntimeFactory } from "./runtime.ts";
import { taskToolSession } from "./task-tools.ts";
import type { AgentScore, Taskset } from "./taskset.ts";
import type { ToolResultContext } from "./tool-result-hook.ts";

/** How long a harness may take to return once its time is up or it is cancelled, in ms. */
const STOP_GRACE_MS = 10_000;

/** What one agent rollout needs. */
export interface AgentRolloutOptions {
  task: AgentTask;
  taskset: Taskset;
  harness: Harness;
  /** Makes the rollout's runtime. */
  runtimes: RuntimeFactory;
  /** The interception server the harness is pointed at (one serves many rollouts). */
  server: InterceptionServer;
  /** Where the model calls go, and the model name sent there. */
  client: ModelClient;
  model: string;
  /** Sampling set over the agent's own (null removes its field); default none. */
  sampling?: SamplingArgs;
  /** The run's time limit in seconds, over the task's own (`vf eval --timeout`). */
  timeSeconds?: number;
  /** MCP servers of the task's tools, handed to the harness; default none. */
  mcpUrls?: readonly string[];
  /** Cancels the rollout: everything is closed, then it rejects with `CancelledError`. */
  signal?: AbortSignal;
}

/** Where a rollout failed; each stage at most once. */
export type AgentRolloutStage = "runtime" | "tools" | "harness" | "score" | "close";

/** A failure recorded on the rollout. */
export interface AgentRolloutFailure {
  stage: AgentRolloutStage;
  error: Error;
}

/** Where a rollout's time went, in milliseconds; `startMs` is epoch milliseconds. */
export interface AgentRolloutTiming {
  startMs: number;
  /** Registering with the interception server and making the runtime with the task's files. */
  setupMs: number;
  /** The harness's run, model calls included. */
  agentMs: number;
  /** Of which waiting on the model (the calls' durations summed). */
  modelMs: number;
  scoringMs: number;
  /** Closing the runtime. */
  teardownMs: number;
}

/** What a rollout comes to. */
export interface AgentRollout {
  trace: AgentTrace;
  /** The taskset's score; null when scoring failed or the agent never ran. */
  score: AgentScore | null;
  /** What went wrong, in the order it happened. */
  failures: AgentRolloutFailure[];
  timing: AgentRolloutTiming;
}

/** Runs one agent rollout; see the file comment. */
export async function runAgentRollout(options: AgentRolloutOptions): Promise<AgentRollout> {
  const { task, taskset, harness, server, signal } = options;
  const startMs = Date.now();
  const failures: AgentRolloutFailure[] = [];
  const fail = (stage: AgentRolloutStage, error: unknown) =>
    failures.push({ stage, error: error instanceof Error ? error : new Error(String(error)) });
  signal?.throwIfAborted();

  const timeSeconds = options.timeSeconds ?? task.limits.timeSeconds;
  const registered = server.register({
    client: options.client,
    model: options.model,
    ...(options.sampling ? { sampling: options.sampling } : {}),
    ...(taskset.onToolResult
      ? { onToolResult: (context: ToolResultContext) => taskset.onToolResult!({ ...context, task }) }
      : {}),
    limits: { ...task.limits, timeSeconds },
  });
  let runtime: Runtime | undefined;
  try {
    runtime = await options.runtimes.create(task, {
      interceptionUrl: server.url,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (!signal?.aborted) fail("runtime", error);
  }
  // The task's own tools, bound to this rollout, beside any the caller serves.
  const mcpUrls = [...(options.mcpUrls ?? [])];
  const toolsEnd = new AbortController();
  let toolsFailed = false;
  if (runtime && taskset.tools) {
    try {
      const tools = await taskset.tools(task);
      if (tools.length > 0) {
        const session = taskToolSession(tools, { task, runtime, signal: toolsEnd.signal });
        mcpUrls.push(registered.serveTools(session));
      }
    } catch (error) {
      toolsFailed = true;
      fail(
        "tools",
        new TasksetToolsError(
          `the ${taskset.id} taskset could not make task ${task.id}'s tools: ${message(error)}`,
          taskset.id,
          { cause: error },
        ),
      );
    }
  }
  const setupMs = Date.now() - startMs;

  let result: HarnessResult = { exitCode: null, output: "" };
  let stop: AgentStop | undefined;
  const agentStart = Date.now();
  if (runtime && !toolsFailed) {
    const timeUp = AbortSignal.timeout(timeSeconds * 1000);
    const run = harness.run({
      task,
      runtime,
      model: registered.endpoint(harness.api),
      mcpUrls,
      signal: signal ? AbortSignal.any([signal, timeUp]) : timeUp,
    });
    const ended = await settleWithin(run, [timeUp, signal], STOP_GRACE_MS);
    if (timeUp.aborted) stop = "timeout";
    if (signal?.aborted) stop = "cancelled";
    if (ended.type === "returned") {
      result = ended.value;
    } else if (ended.type === "threw") {
      if (!stop) {
        stop = "error";
        fail(
          "harness",
          new HarnessError(`the ${harness.id} harness failed: ${message(ended.error)}`, harness.id, {
            cause: ended.error,
          }),
        );
      }
    } else {
      fail(
        "harness",
        new HarnessError(
          `the ${harness.id} harness did not return within ${STOP_GRACE_MS / 1000} s of being stopped: its runtime is closed`,
          harness.id,
        ),
      );
    }
  } else {
    stop = signal?.aborted ? "cancelled" : "error";
  }
  const agentMs = Date.now() - agentStart;
  toolsEnd.abort();
  let trace = await registered.end({
    exitCode: result.exitCode,
    output: result.output,
    ...(stop ? { stop } : {}),
  });
  if (runtime && !stop && trace.stop === "agent_completed" && result.exitCode !== 0) {
    // The program failed on its own (no limit ended it): a crash, not an answer.
    const code = result.exitCode === null ? "was killed" : `exited with code ${result.exitCode}`;
    fail(
      "harness",
      new HarnessError(`the ${harness.id} harness ${code}: ${lastLine(result.output)}`, harness.id),
    );
    trace = { ...trace, stop: "error" };
  }

  let score: AgentScore | null = null;
  const scoringStart = Date.now();
  if (runtime && !toolsFailed && !signal?.aborted) {
    try {
      score = await taskset.score({ task, trace, runtime });
    } catch (error) {
      fail(
        "score",
        new TasksetScoreError(
          `the ${taskset.id} taskset could not score task ${task.id}: ${message(error)}`,
          taskset.id,
          {
            cause: error,
          },
        ),
      );
    }
  }
  const scoringMs = Date.now() - scoringStart;
  const teardownStart = Date.now();
  if (runtime) {
    try {
      await runtime.close();
    } catch (error) {
      fail("close", error);
    }
  }
  if (signal?.aborted) throw new CancelledError("the agent rollout was cancelled");
  const modelMs = trace.calls.reduce((sum, call) => sum + (call.end - call.start), 0);
  return {
    trace,
    score,
    failures,
    timing: { startMs, setupMs, agentMs, modelMs, scoringMs, teardownMs: Date.now() - teardownStart },
  };
}

type Settled<T> = { type: "returned"; value: T } | { type: "threw"; error: unknown } | { type: "late" };

/** Waits for `run`; once any of `stops` is aborted, at most `graceMs` longer. */
async function settleWithin<T>(
  run: Promise<T>,
  stops: ReadonlyArray<AbortSignal | undefined>,
  graceMs: number,
): Promise<Settled<T>> {
  const settled = run.then(
    (value): Settled<T> => ({ type: "returned", value }),
    (error: unknown): Settled<T> => ({ type: "threw", error }),
  );
  let timer: NodeJS.Timeout | undefined;
  let onStop = () => {};
  const late = new Promise<Settled<T>>((resolve) => {
    onStop = () => {
      timer ??= setTimeout(() => resolve({ type: "late" }), graceMs);
    };
  });
  for (const stop of stops) {
    if (stop?.aborted) onStop();
    else stop?.addEventListener("abort", onStop, { once: true });
  }
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
    for (const stop of stops) stop?.removeEventListener("abort", onStop);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The last non-empty line the program printed, or a note that it printed nothing. */
function lastLine(output: string): string {
  const lines = output.trim().split("\n");
  return lines.at(-1)?.trim() || "it printed nothing";
}
