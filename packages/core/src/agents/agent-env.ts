/**
 * A taskset worked on by a harness in a runtime, as an `Environment`: its rows are the taskset's
 * tasks, and a rollout is an agent rollout (run-agent-rollout.ts) whose trace becomes the rollout's
 * state. So everything that runs environments runs agents unchanged: `generate` (groups of
 * `rolloutsPerExample`, concurrency limits, retries of infrastructure failures), `evaluate` and
 * its saved runs, `vf eval`. Each row keeps the trace (`trace`), and its prompt, completion and
 * per-turn tokens (`trajectory`) come from the trace's main branch, so `vf view` and training read
 * it as any other rollout. The taskset scores inside the rollout, while the runtime is open; the
 * environment's rubric hands that score on. One interception server serves all of the
 * environment's rollouts; it starts with the first and stops at `teardown()`.
 *
 * @example
 * const env = new AgentEnv({ taskset: await loadTaskset({}), harness: bashHarness(), runtimes: localRuntime() });
 * const result = await evaluate(env, { clients: client, model: "gpt-4.1-mini", numExamples: 5 });
 * await env.teardown();
 */
import { homedir } from "node:os";
import { join } from "node:path";
import type { FinishReason, ModelClient, SamplingArgs } from "../client/model-client.ts";
import { Dataset } from "../datasets/dataset.ts";
import { Environment, type RolloutContext } from "../envs/environment.ts";
import { CancelledError, UserError } from "../errors.ts";
import {
  createState,
  errorData,
  type RolloutInput,
  type RolloutState,
  recordError,
} from "../rollout/rollout-state.ts";
import { headersFromState } from "../rollout/state-value.ts";
import { type Score, Scorer } from "../rubrics/scorer.ts";
import type { AgentTask, TaskLimits } from "./agent-task.ts";
import type { AgentTrace } from "./agent-trace.ts";
import type { Harness } from "./harness.ts";
import {
  type InterceptionServer,
  type InterceptionServerOptions,
  startInterceptionServer,
} from "./interception-server.ts";
import { type AgentRollout, runAgentRollout } from "./run-agent-rollout.ts";
import type { RuntimeFactory } from "./runtime.ts";
import type { AgentScore, Taskset } from "./taskset.ts";
import { traceConversation } from "./trace-conversation.ts";

/** What an `AgentEnv` is made of. */
export interface AgentEnvOptions {
  taskset: Taskset;
  harness: Harness;
  /** Where each rollout's agent runs (one runtime per rollout). */
  runtimes: RuntimeFactory;
  /** Where the interception server listens; default 127.0.0.1 on a free port. */
  interception?: InterceptionServerOptions;
  /** Where `harness.prepare` installs its program; default ~/.cache/vf/harnesses. */
  cacheDir?: string;
  /** Limits over each task's own (a config's `[env.agent]` max_turns, timeout, max_output_tokens). */
  limits?: Partial<TaskLimits>;
}

/** A rollout's own data: the taskset's score (null when it failed or the agent never ran). */
export interface AgentRolloutData {
  score: AgentScore | null;
}

/** A taskset run by a harness in a runtime, as an environment; see the file comment. */
export class AgentEnv extends Environment<AgentRolloutData> {
  readonly taskset: Taskset;
  readonly harness: Harness;
  readonly runtimes: RuntimeFactory;
  /** Each row's task, by its id (the rollout input's `task`). */
  private readonly tasksById = new Map<string, AgentTask>();
  private readonly options: AgentEnvOptions;
  private ready: Promise<InterceptionServer> | undefined;

  constructor(options: AgentEnvOptions) {
    const split = (name: "train" | "eval") => async () =>
      this.rows(await options.taskset.tasks({ split: name }));
    super({ dataset: split("train"), evalDataset: split("eval"), rubric: new TasksetScorer() });
    this.taskset = options.taskset;
    this.harness = options.harness;
    this.runtimes = options.runtimes;
    this.options = options;
    this.addTeardown("interception_server", async () => {
      const ready = this.ready;
      this.ready = undefined;
      await (await ready?.catch(() => undefined))?.close();
    });
  }

  /** The tasks as dataset rows; a row's `task` is the task's id, by which the rollout finds it. */
  private rows(tasks: AgentTask[]): Dataset {
    for (const task of tasks) {
      const known = this.tasksById.get(task.id);
      if (known && known !== task && known.exampleId !== task.exampleId) {
        throw new UserError(
          `the ${this.options.taskset.id} taskset has two tasks with the id "${task.id}": give each task its own id`,
        );
      }
      this.tasksById.set(task.id, task);
    }
    return Dataset.fromRows(
      tasks.map((task) => ({
        example_id: task.exampleId,
        prompt: task.prompt,
        answer: task.answer,
        info: task.info,
        task: task.id,
      })),
      { source: `the ${this.options.taskset.id} taskset` },
    );
  }

  /** The interception server (started once) after the harness's program is prepared. */
  private server(signal?: AbortSignal): Promise<InterceptionServer> {
    this.ready ??= (async () => {
      const cacheDir = this.options.cacheDir ?? join(homedir(), ".cache", "vf", "harnesses");
      await this.harness.prepare?.({ cacheDir, ...(signal ? { signal } : {}) });
      return startInterceptionServer(this.options.interception);
    })();
    // A failed start is not kept: the next rollout tries again.
    this.ready.catch(() => {
      this.ready = undefined;
    });
    return this.ready;
  }

  async rollout(input: RolloutInput, ctx: RolloutContext): Promise<RolloutState<AgentRolloutData>> {
    const own = this.tasksById.get(input.task);
    if (!own) {
      throw new UserError(
        `no task "${input.task}" in the ${this.taskset.id} taskset: run the inputs this environment's inputs() gave`,
      );
    }
    // The host's limits over the task's own; a run's timeout (ctx) goes over both.
    const limits = this.options.limits;
    const task = limits ? { ...own, limits: { ...own.limits, ...limits } } : own;
    const sampling: SamplingArgs = { ...this.sampling, ...ctx.sampling };
    const state = createState<AgentRolloutData>(input, {
      model: ctx.model,
      sampling,
      toolDefs: [],
      signal: ctx.signal ?? new AbortController().signal,
      data: { score: null },
    });
    let rollout: AgentRollout;
    try {
      rollout = await runAgentRollout({
        task,
        taskset: this.taskset,
        harness: this.harness,
        runtimes: this.runtimes,
        server: await this.server(ctx.signal),
        client: ctx.headersFromState
          ? withHeaders(ctx.client, headersFromState(state, ctx.headersFromState))
          : ctx.client,
        model: ctx.model,
        sampling,
        ...(ctx.timeoutSeconds !== undefined ? { timeSeconds: ctx.timeoutSeconds } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (error) {
      if (error instanceof CancelledError || ctx.signal?.aborted) throw error;
      // The interception server or the harness's program could not be made ready.
      recordError(state, error);
      state.isCompleted = true;
      state.stopCondition = "error";
      return state;
    }
    return fillState(state, rollout, this.taskset.id);
  }
}

/** The state of a finished agent rollout: its conversation, turns, stop, errors, times and trace. */
function fillState(
  state: RolloutState<AgentRolloutData>,
  rollout: AgentRollout,
  tasksetId: string,
): RolloutState<AgentRolloutData> {
  const { trace, timing } = rollout;
  const conversation = traceConversation(trace, state.prompt);
  const filled: RolloutState<AgentRolloutData> = { ...state, prompt: conversation.prompt };
  filled.completion = conversation.completion;
  filled.turns = turnsOf(trace);
  filled.toolDefs = trace.calls.find((call) => call.tools.length > 0)?.tools ?? [];
  filled.trace = trace;
  filled.data = { score: rollout.score };
  filled.isCompleted = true;
  filled.stopCondition = trace.stop;
  filled.isTruncated =
    TRUNCATING_STOPS.has(trace.stop) || filled.turns.at(-1)?.response.finishReason === "length";
  filled.timedOut = trace.stop === "timeout";
  for (const failure of rollout.failures) {
    if (failure.stage === "score") {
      filled.scoringErrors = [
        ...filled.scoringErrors,
        { function: `${tasksetId}.score`, error: errorData(failure.error) },
      ];
    } else {
      recordError(filled, failure.error);
    }
  }
  filled.times = {
    startMs: timing.startMs,
    setupMs: timing.setupMs,
    generationMs: timing.agentMs,
    modelMs: timing.modelMs,
    envMs: Math.max(0, timing.agentMs - timing.modelMs),
    scoringMs: timing.scoringMs,
  };
  return filled;
}

/** Stops that cut the agent off before it finished. */
const TRUNCATING_STOPS: ReadonlySet<string> = new Set([
  "max_turns",
  "max_completion_tokens",
  "timeout",
  "context_length",
]);

/** The trace's answered calls as the rollout's turns (what `trajectory` and token usage read). */
function turnsOf(trace: AgentTrace): RolloutState["turns"] {
  return trace.calls.flatMap((call) =>
    call.reply === null
      ? []
      : [
          {
            prompt: call.messages,
            completion: call.reply,
            response: {
              id: "",
              model: call.model,
              message: call.reply,
              finishReason: (call.finishReason ?? "stop") as FinishReason,
              usage: call.usage ?? { promptTokens: 0, completionTokens: 0 },
              tokens: call.tokens,
            },
          },
        ],
  );
}

/** `client` sending `headers` with every call (headers from the rollout's state). */
function withHeaders(client: ModelClient, headers: Record<string, string>): ModelClient {
  if (Object.keys(headers).length === 0) return client;
  return {
    baseUrl: client.baseUrl,
    chat: (request, options = {}) =>
      client.chat(request, { ...options, headers: { ...headers, ...options.headers } }),
  };
}

/** Hands on the score the taskset gave inside the rollout; 0 when there is none. */
class TasksetScorer extends Scorer<AgentRolloutData> {
  names(): string[] {
    return [];
  }

  requiresGroup(): boolean {
    return false;
  }

  async compute(states: RolloutState<AgentRolloutData>[]): Promise<Score[]> {
    return states.map((state) => ({
      reward: state.data.score?.reward ?? 0,
      metrics: state.data.score?.metrics ?? {},
      errors: [],
    }));
  }
}
