/**
 * A conversation between the model and the environment: the model answers, `envResponse` replies,
 * until a stop condition fires. Stop conditions run by priority (then name) and the one that fired
 * is recorded. A per-rollout timeout keeps the partial completion; cleanup always runs.
 *
 * @example
 * class Echo extends MultiTurnEnv {
 *   envResponse(messages: Messages) {
 *     return [{ role: "user", content: `you said: ${lastAssistantText(messages)}` }];
 *   }
 * }
 */
import { z } from "zod";
import { describeConfigIssues } from "../config/config-issues.ts";
import { CancelledError, EnvSettingsError, OverlongPromptError } from "../errors.ts";
import type { Messages } from "../messages/message.ts";
import {
  createState,
  errorData,
  type RolloutInput,
  type RolloutState,
  recordError,
} from "../rollout/rollout-state.ts";
import { headersFromState } from "../rollout/state-value.ts";
import { checkedEnvResponse } from "./checked-env-response.ts";
import { Environment, type EnvironmentOptions, type RolloutContext } from "./environment.ts";
import { OrderedHooks } from "./ordered-hooks.ts";

/**
 * Options of `MultiTurnEnv`: an environment's options plus how a rollout's data is made and turn,
 * time and token limits. A constructor takes them with `DataOptions<Data>`, which makes
 * `initialData` required when `Data` has required fields.
 */
export interface MultiTurnEnvOptions<Data> extends EnvironmentOptions<Data> {
  /**
   * Makes the environment's own fields of one rollout (`state.data`) before its first model turn.
   * When it throws, or has not finished when the rollout times out or is cancelled, the rollout
   * ends there (`has_error` or `timeout_reached`) without data, and is neither cleaned up nor
   * scored. Default (allowed only when `Data` has no required fields): an empty object.
   *
   * @example
   * super({ ...options, initialData: (input) => ({ game: newGame(input.answer, maxGuesses) }) });
   */
  initialData?: (input: RolloutInput) => Data | Promise<Data>;
  /** Model turns per rollout; default unlimited (-1 also means unlimited). */
  maxTurns?: number;
  /** Wall-clock limit of setup plus generation per rollout, in seconds; the partial completion is kept. */
  timeoutSeconds?: number;
  /** Cap on completion tokens summed over all turns; each turn's max_tokens is lowered to fit. */
  maxTotalCompletionTokens?: number;
}

/**
 * What a constructor's options add for `Data`: nothing when an empty object is a whole `Data` (no
 * fields, or optional ones only), else a required `initialData`, so `state.data` always holds
 * what its type says. A generic subclass takes `XOptions<Data> & DataOptions<Data>` to pass it on.
 */
export type DataOptions<Data> =
  Record<string, never> extends Data
    ? unknown
    : { initialData: (input: RolloutInput) => Data | Promise<Data> };

/** What `envResponse` returns: messages to append, or final messages that end the rollout. */
export type EnvResponse = Messages | { messages: Messages; final: true };

/** Settings `configure` (and `vf eval -x`) may change, in verifiers' snake_case. */
export const MultiTurnSettings = z
  .object({
    max_turns: z.number().int(),
    timeout_seconds: z.number().positive(),
    max_total_completion_tokens: z.number().int().positive(),
  })
  .partial()
  .strict();
export type MultiTurnSettings = z.infer<typeof MultiTurnSettings>;

/** A stop condition: true ends the rollout before the next model turn. */
export type StopCheck<Data> = (state: RolloutState<Data>) => boolean | Promise<boolean>;

class TimeoutReason extends Error {}

/** An environment that talks with the model over several turns: subclasses write `envResponse`. */
export abstract class MultiTurnEnv<Data = Record<string, unknown>> extends Environment<Data> {
  /** Change these three through `configure`. */
  maxTurns: number;
  timeoutSeconds: number | undefined;
  maxTotalCompletionTokens: number | undefined;
  protected readonly stops = new OrderedHooks<StopCheck<Data>>();
  /** Makes a rollout's `state.data` (see `MultiTurnEnvOptions.initialData`). */
  protected readonly initialData: (input: RolloutInput) => Data | Promise<Data>;

  constructor(options: MultiTurnEnvOptions<Data> & DataOptions<Data>) {
    super(options);
    // Without initialData, DataOptions let the options through only where {} is a whole Data.
    this.initialData = options.initialData ?? (() => ({}) as Data);
    this.maxTurns = options.maxTurns === undefined || options.maxTurns < 0 ? Infinity : options.maxTurns;
    this.timeoutSeconds = options.timeoutSeconds;
    this.maxTotalCompletionTokens = options.maxTotalCompletionTokens;
    this.addStopCondition("has_error", (s) => s.error !== null, 100);
    this.addStopCondition("prompt_too_long", (s) => s.promptTooLong, 90);
    this.addStopCondition("has_final_env_response", (s) => s.finalEnvResponse !== null);
    this.addStopCondition("max_turns_reached", (s) => s.turns.length >= this.maxTurns);
    this.addStopCondition(
      "max_total_completion_tokens_reached",
      (s) =>
        this.maxTotalCompletionTokens !== undefined && completionTokens(s) >= this.maxTotalCompletionTokens,
    );
  }

  override configure(settings: Record<string, unknown>): void {
    const parsed = MultiTurnSettings.safeParse(settings);
    if (!parsed.success) {
      const known = Object.keys(MultiTurnSettings.shape);
      throw new EnvSettingsError(
        `${describeConfigIssues(parsed.error, "environment settings", known)}; accepted: ${known.join(", ")}`,
      );
    }
    const { max_turns, timeout_seconds, max_total_completion_tokens } = parsed.data;
    if (max_turns !== undefined) this.maxTurns = max_turns < 0 ? Infinity : max_turns;
    if (timeout_seconds !== undefined) this.timeoutSeconds = timeout_seconds;
    if (max_total_completion_tokens !== undefined)
      this.maxTotalCompletionTokens = max_total_completion_tokens;
  }

  /** The environment's reply to the model's last turn. Not called once a stop condition has fired. */
  protected abstract envResponse(
    messages: Messages,
    state: RolloutState<Data>,
  ): EnvResponse | Promise<EnvResponse>;

  /**
   * Work of a begun rollout before its first model turn, counted in its setup time: ToolEnv lists
   * its MCP servers' tools here and offers them in `state.toolDefs`. When it throws, the rollout
   * ends with the error (`has_error`) and its cleanups run. Subclasses that override it call super.
   */
  protected prepareRollout(_state: RolloutState<Data>): void | Promise<void> {}

  /**
   * Adds a stop condition, checked before every model turn by priority (higher first), then name.
   * Adding one with an existing name replaces it.
   */
  addStopCondition(name: string, check: StopCheck<Data>, priority = 0): void {
    this.stops.add(name, check, priority);
  }

  /** Checks the stop conditions; records the first that fires. */
  async isCompleted(state: RolloutState<Data>): Promise<boolean> {
    if (state.isCompleted) return true;
    for (const stop of this.stops.list()) {
      let fired: boolean;
      try {
        fired = await stop.fn(state);
      } catch (error) {
        recordError(state, error);
        fired = true;
      }
      if (fired) {
        state.isCompleted = true;
        state.stopCondition = state.error !== null && stop.name !== "has_error" ? "has_error" : stop.name;
        return true;
      }
    }
    return false;
  }

  async rollout(input: RolloutInput, ctx: RolloutContext): Promise<RolloutState<Data>> {
    const abort = new AbortController();
    const onCancel = () => abort.abort(ctx.signal?.reason ?? new CancelledError());
    if (ctx.signal?.aborted) onCancel();
    ctx.signal?.addEventListener("abort", onCancel, { once: true });
    const timeout = ctx.timeoutSeconds ?? this.timeoutSeconds;
    const timer =
      timeout === undefined ? undefined : setTimeout(() => abort.abort(new TimeoutReason()), timeout * 1000);

    const state = createState<Data>(input, {
      model: ctx.model,
      sampling: { ...this.sampling, ...ctx.sampling },
      toolDefs: this.toolDefsFor(input),
      signal: abort.signal,
    });
    const aborted = new Promise<void>((resolve) => abort.signal.addEventListener("abort", () => resolve()));
    const rollout = { ended: false };
    try {
      await Promise.race([this.run(state, ctx, rollout), aborted]);
      if (abort.signal.aborted) {
        if (!(abort.signal.reason instanceof TimeoutReason)) throw cancellation(abort.signal.reason);
        state.timedOut = true;
        state.isCompleted = true;
        state.stopCondition = "timeout_reached";
      }
    } finally {
      clearTimeout(timer);
      ctx.signal?.removeEventListener("abort", onCancel);
      rollout.ended = true;
      if (state.begun) await this.runCleanups(state);
    }
    return state;
  }

  private async run(
    state: RolloutState<Data>,
    ctx: RolloutContext,
    rollout: { ended: boolean },
  ): Promise<void> {
    const signal = state.signal;
    const setupStart = performance.now();
    try {
      const data = await this.initialData(state.input);
      // Data made before the rollout ended is kept even when it was aborted, so the cleanups give
      // back what it holds; data made later comes too late: the rollout ended without it.
      if (!rollout.ended) {
        state.data = data;
        state.begun = true;
      }
    } catch (error) {
      if (!signal.aborted) recordError(state, error);
    }
    if (state.begun) {
      try {
        await this.prepareRollout(state);
      } catch (error) {
        if (!signal.aborted) recordError(state, error);
      }
    }
    state.times.setupMs = performance.now() - setupStart;
    if (!state.begun) {
      // Stop conditions are the environment's code, which only meets states that have their data.
      if (state.error !== null) {
        state.isCompleted = true;
        state.stopCondition = "has_error";
      }
      return;
    }
    const generationStart = performance.now();
    try {
      while (!signal.aborted && !(await this.isCompleted(state))) {
        await this.modelTurn(state, ctx);
        if (signal.aborted || (await this.isCompleted(state))) break;
        const reply = await this.timedEnvResponse(state);
        if (signal.aborted || reply === undefined) continue;
        if (Array.isArray(reply)) {
          state.completion.push(...reply);
        } else {
          state.finalEnvResponse = reply.messages;
          state.completion.push(...reply.messages);
        }
      }
    } finally {
      state.times.generationMs = performance.now() - generationStart;
    }
  }

  private async timedEnvResponse(state: RolloutState<Data>): Promise<EnvResponse | undefined> {
    const start = performance.now();
    try {
      return checkedEnvResponse(await this.envResponse([...state.prompt, ...state.completion], state));
    } catch (error) {
      if (!state.signal.aborted) recordError(state, error);
      return undefined;
    } finally {
      state.times.envMs += performance.now() - start;
    }
  }

  private async modelTurn(state: RolloutState<Data>, ctx: RolloutContext): Promise<void> {
    const prompt = [...state.prompt, ...state.completion];
    const start = performance.now();
    try {
      const response = await ctx.client.chat(
        {
          model: state.model,
          messages: prompt,
          ...(state.toolDefs.length > 0 ? { tools: state.toolDefs } : {}),
          sampling: this.turnSampling(state),
        },
        ctx.headersFromState
          ? { signal: state.signal, headers: headersFromState(state, ctx.headersFromState) }
          : { signal: state.signal },
      );
      if (state.signal.aborted) return;
      state.turns.push({ prompt, completion: response.message, response });
      state.completion.push(response.message);
      if (response.finishReason === "length") state.isTruncated = true;
    } catch (error) {
      if (state.signal.aborted) return;
      if (error instanceof OverlongPromptError) {
        state.promptTooLong = true;
        state.isTruncated = true;
      } else {
        recordError(state, error);
      }
    } finally {
      state.times.modelMs += performance.now() - start;
    }
  }

  private turnSampling(state: RolloutState<Data>): RolloutState["sampling"] {
    if (this.maxTotalCompletionTokens === undefined) return state.sampling;
    const left = this.maxTotalCompletionTokens - completionTokens(state);
    const own = state.sampling.max_tokens ?? state.sampling.max_completion_tokens;
    const maxTokens = typeof own === "number" ? Math.min(own, left) : left;
    return { ...state.sampling, max_tokens: Math.max(1, maxTokens) };
  }

  /** Runs the cleanup hooks of a begun rollout; a failing one is added to the rollout's error. */
  protected async runCleanups(state: RolloutState<Data>): Promise<void> {
    for (const hook of this.cleanups.list()) {
      try {
        await hook.fn(state);
      } catch (error) {
        const data = errorData(error);
        if (state.error === null) state.error = data;
        else state.error.message += `; cleanup "${hook.name}" also failed: ${data.error}: ${data.message}`;
      }
    }
  }
}

function completionTokens<Data>(state: RolloutState<Data>): number {
  return state.turns.reduce((sum, turn) => sum + turn.response.usage.completionTokens, 0);
}

function cancellation(reason: unknown): CancelledError {
  return reason instanceof CancelledError ? reason : new CancelledError("rollout cancelled");
}
