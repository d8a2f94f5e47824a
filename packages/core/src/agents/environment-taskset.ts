/**
 * Any vf environment as a taskset: its rows become tasks (the prompt it would send, its answer and
 * info), and what an agent did is scored with the environment's own rubric and metrics. Its own
 * harness, `chat`, runs the environment's turn loop against the interception server: the plain chat
 * loop of a SingleTurnEnv or ToolEnv (its tools run in vf, as they do in `vf eval`), a
 * MultiTurnEnv's replies, its stop conditions and per-rollout data, all unchanged, so the score is
 * the one `vf eval <env>` gives. Any other harness (bash, an agent CLI) gets the task's prompt, and
 * its trace's main branch is scored as the completion (with no per-rollout data of the environment).
 *
 * @example
 * const taskset = environmentTaskset(await loadEnvironment({}), { id: "reverse-text" });
 * const env = new AgentEnv({ taskset, harness: taskset.harness, runtimes: subprocessRuntime() });
 */
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import type { Environment } from "../envs/environment.ts";
import { createState, type RolloutInput, type RolloutState } from "../rollout/rollout-state.ts";
import { AgentTask, type TaskLimits } from "./agent-task.ts";
import type { Harness, HarnessContext, HarnessResult } from "./harness.ts";
import type { Runtime } from "./runtime.ts";
import type { AgentScore, AgentScoreContext, Taskset } from "./taskset.ts";
import { traceConversation } from "./trace-conversation.ts";

/** Options of `environmentTaskset`. */
export interface EnvironmentTasksetOptions {
  /** The taskset's id: the environment's (`vf.id`); default "environment". */
  id?: string;
  /** Each task's limits, over the defaults (600 s, 50 model calls). */
  limits?: Partial<TaskLimits>;
}

/** Makes `env` a taskset; see the file comment. */
export function environmentTaskset<Data>(
  env: Environment<Data>,
  options: EnvironmentTasksetOptions = {},
): EnvironmentTaskset<Data> {
  return new EnvironmentTaskset(env, options);
}

/** An environment as a taskset, with its own turn loop as the `chat` harness. */
export class EnvironmentTaskset<Data> implements Taskset {
  readonly id: string;
  /** The environment's own turn loop, pointed at the interception server. */
  readonly harness: Harness;
  /** Each task's row, by task id. */
  private readonly inputs = new Map<string, RolloutInput>();
  /** The state the environment's own loop left, by the rollout's runtime (one per rollout). */
  private readonly states = new WeakMap<Runtime, RolloutState<Data>>();

  constructor(
    readonly env: Environment<Data>,
    private readonly options: EnvironmentTasksetOptions,
  ) {
    this.id = options.id ?? "environment";
    this.harness = {
      id: "chat",
      api: "openai_chat_completions",
      run: (context) => this.runOwnLoop(context),
    };
  }

  async tasks(options: { split: "train" | "eval"; numExamples?: number }): Promise<AgentTask[]> {
    const { inputs } = await this.env.inputs({
      split: options.split,
      ...(options.numExamples !== undefined ? { numExamples: options.numExamples } : {}),
    });
    return inputs.map((input) => {
      // Ids name the split: an environment's train and eval rows both count from 0.
      const id = `${options.split}-${input.exampleId}`;
      this.inputs.set(id, input);
      return AgentTask.parse({
        id,
        exampleId: input.exampleId,
        prompt: input.prompt,
        answer: input.answer,
        info: input.info,
        limits: this.options.limits ?? {},
      });
    });
  }

  /** Scores the environment's own state of the rollout, or one made from the trace's main branch. */
  async score({ task, trace, runtime }: AgentScoreContext): Promise<AgentScore> {
    const state = this.states.get(runtime) ?? this.stateFromTrace(task, trace);
    this.states.delete(runtime);
    await this.env.score([state], { independent: true });
    if (state.scoringErrors.length > 0) {
      const [first] = state.scoringErrors;
      throw new Error(
        `${first!.function} failed: ${first!.error.error}: ${first!.error.message}${state.scoringErrors.length > 1 ? ` (and ${state.scoringErrors.length - 1} more)` : ""}`,
      );
    }
    return { reward: state.reward, metrics: state.metrics };
  }

  private input(task: AgentTask): RolloutInput {
    return (
      this.inputs.get(task.id) ?? {
        exampleId: task.exampleId,
        rolloutIndex: 0,
        prompt: task.prompt,
        answer: task.answer,
        info: task.info,
        task: "default",
      }
    );
  }

  /** A finished state holding what another harness did: the trace's branch as the completion. */
  private stateFromTrace(task: AgentTask, trace: AgentScoreContext["trace"]): RolloutState<Data> {
    const input = this.input(task);
    const state = createState<Data>(input, {
      model: trace.calls[0]?.model ?? "",
      sampling: {},
      toolDefs: [],
      signal: new AbortController().signal,
      data: {} as Data,
    });
    const { completion } = traceConversation(trace, input.prompt);
    state.completion = completion;
    state.isCompleted = true;
    state.stopCondition = trace.stop;
    return state;
  }

  /** The `chat` harness: the environment's rollout, its model calls sent to the interception server. */
  private async runOwnLoop({ task, runtime, model, signal }: HarnessContext): Promise<HarnessResult> {
    const client = new OpenAIModelClient({ baseUrl: model.baseUrl, apiKey: model.apiKey, maxRetries: 0 });
    try {
      const state = await this.env.rollout(this.input(task), { client, model: model.name, signal });
      this.states.set(runtime, state);
      const error = state.error;
      return error
        ? { exitCode: 1, output: `${error.error}: ${error.message}` }
        : { exitCode: 0, output: `stopped: ${state.stopCondition ?? "done"}` };
    } finally {
      await client.close();
    }
  }
}
