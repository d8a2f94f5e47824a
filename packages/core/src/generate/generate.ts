/**
 * Runs rollouts of an environment against a model: inputs are grouped by example, at most
 * `maxConcurrent` rollouts are in flight (`maxConcurrentGeneration` and `maxConcurrentScoring` bound
 * each phase within it), each group is scored together (or each rollout alone
 * with `independentScoring`) as soon as it is done (or after every rollout, `interleaveScoring:
 * false`), rollouts that ended with an infrastructure error are run again up to
 * `maxRetries` times, and every finished group is handed to `onGroup` as it completes, so a caller
 * can save incrementally. Cancelling keeps every finished group and drops unfinished ones.
 * An error every later call would repeat (a rejected key, an unknown model, a spent quota) stops
 * the run (see run-stop.ts): groups that had started are recorded, their cancelled rollouts with a
 * `RunStoppedError`, and groups that had not started are left out.
 *
 * @example
 * const { records } = await generate(env, inputs, { clients: client, model: "gpt-4.1-mini", maxConcurrent: 64 });
 */
import { type FatalModelError, RunStoppedError } from "../client/fatal-model-error.ts";
import type { ModelClient, SamplingArgs } from "../client/model-client.ts";
import { sleep } from "../client/retrying-call.ts";
import type { Environment } from "../envs/environment.ts";
import { CancelledError, GroupScoringRequiredError } from "../errors.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import { createState, type RolloutInput, type RolloutState, recordError } from "../rollout/rollout-state.ts";
import { toRecord } from "../rollout/to-record.ts";
import { CancelScope } from "./cancel-scope.ts";
import { RunStop } from "./run-stop.ts";
import { Slots } from "./slots.ts";

/** Options of `generate`: the inputs, clients, model, sampling and concurrency. */
export interface GenerateOptions {
  /** One client, or several replicas used in turn, one per group (a group shares one server's cache). */
  clients: ModelClient | ModelClient[];
  model: string;
  sampling?: SamplingArgs;
  /** Rollouts in flight at once; default 32. */
  maxConcurrent?: number;
  /**
   * Rollouts being generated at once (verifiers' `max_concurrent_generation`); default and at most
   * `maxConcurrent`.
   */
  maxConcurrentGeneration?: number;
  /**
   * Units being scored at once: groups, or rollouts with `independentScoring` (verifiers'
   * `max_concurrent_scoring`), e.g. to spare a judge model; default and at most `maxConcurrent`.
   */
  maxConcurrentScoring?: number;
  /**
   * Slots shared with other runs going on at once (several evaluations of one command): a rollout
   * holds one of these too, so together they stay within its size.
   */
  sharedSlots?: Slots;
  /** Score each rollout on its own instead of per group; default false. */
  independentScoring?: boolean;
  /**
   * Score each group as soon as its rollouts are done (default true); false: generate every rollout
   * first, then score them all (verifiers' -N), e.g. to keep a judge model's calls out of the way of
   * generation. Nothing reaches `onGroup` until every rollout is generated.
   */
  interleaveScoring?: boolean;
  /** Extra attempts for rollouts that ended with a retryable (infrastructure) error; default 0. */
  maxRetries?: number;
  /** Delay in seconds before retry n (1-based); default exponential from 1 s, capped at 60 s. */
  retryDelaySeconds?: (attempt: number) => number;
  /** Per-rollout wall-clock limit in seconds, overriding the environment's. */
  timeoutSeconds?: number;
  /** Headers of each model request read from the rollout's state (see `RolloutContext.headersFromState`). */
  headersFromState?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** State keys copied into each record (see `toRecord`). */
  stateColumns?: string[];
  /**
   * Called with each finished group's records (one record per call when scoring independently),
   * and their states; no states when the unit ran elsewhere (`runUnit`).
   */
  onGroup?: (records: RolloutRecord[], states: RolloutState<unknown>[] | undefined) => void | Promise<void>;
  /**
   * Runs each unit (a group, or one rollout with `independentScoring`) somewhere else, such as an
   * environment server (`vf eval --env-server`), instead of through `env.rollout` and `env.score`
   * here, and resolves with its scored records. `clients`, `maxRetries` and `timeoutSeconds` are then
   * the runner's business; `maxConcurrent` still bounds the rollouts in flight, and the bounds of
   * each phase (`maxConcurrentGeneration`, `maxConcurrentScoring`) are the runner's too.
   */
  runUnit?: (
    inputs: RolloutInput[],
    context: { signal: AbortSignal | undefined },
  ) => Promise<RolloutRecord[]>;
}

/** What `generate` returns: the scored rollout states, grouped by example. */
export interface GenerateResult {
  /** Records of every finished group, sorted by example id, then rollout index. */
  records: RolloutRecord[];
  /** True when the signal stopped the run before every group finished. */
  cancelled: boolean;
  /** The error every call would have repeated, when one stopped the run early; else null. */
  stoppedBy: FatalModelError | null;
}

const defaultDelay = (attempt: number) => Math.min(60, 2 ** (attempt - 1));

/** Runs and scores rollouts for the given inputs; failures are recorded on their rollouts. */
export async function generate<Data>(
  env: Environment<Data>,
  inputs: RolloutInput[],
  options: GenerateOptions,
): Promise<GenerateResult> {
  const clients = Array.isArray(options.clients) ? options.clients : [options.clients];
  if (clients.length === 0) throw new TypeError("generate needs at least one model client");
  if (options.independentScoring && env.rubric.requiresGroup()) {
    throw new GroupScoringRequiredError();
  }
  const maxConcurrent = options.maxConcurrent ?? 32;
  const slots = new Slots(Math.min(options.maxConcurrentGeneration ?? maxConcurrent, maxConcurrent));
  const scoringSlots = new Slots(Math.min(options.maxConcurrentScoring ?? maxConcurrent, maxConcurrent));
  const scope = new CancelScope(options.signal);
  const stop = new RunStop(scope);
  const units = options.independentScoring ? inputs.map((input) => [input]) : groupByExample(inputs);
  const records: RolloutRecord[] = [];
  let cancelled = false;

  // What every rollout's context shares, made once: a run starts thousands of rollouts.
  const sampling = options.sampling ?? {};
  const shared = {
    model: options.model,
    sampling,
    ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
    ...(options.headersFromState ? { headersFromState: options.headersFromState } : {}),
  };
  const sharedSlots = options.sharedSlots;
  const recordOptions = { stateColumns: options.stateColumns ?? [] };
  const scoreOptions = { independent: options.independentScoring ?? false };

  // One rollout in its generation slot (and a slot of the runs it shares with); null: not started,
  // because the run had stopped. The slots are taken and given back inline rather than through
  // `Slots.with`: a closure and an async frame fewer per rollout, for every unit queued at the start.
  const rollout = async (input: RolloutInput, client: ModelClient): Promise<RolloutState<Data> | null> => {
    const turn = slots.acquire();
    if (turn) await turn;
    try {
      const sharedTurn = sharedSlots?.acquire();
      if (sharedTurn) await sharedTurn;
      try {
        if (options.signal?.aborted) throw new CancelledError();
        if (stop.error) return null;
        const cancel = scope.child();
        try {
          return await env.rollout(input, {
            ...shared,
            client: stop.watch(client, cancel.signal),
            signal: cancel.signal,
          });
        } catch (error) {
          if (error instanceof CancelledError && stop.error && !options.signal?.aborted)
            return stopped(input);
          throw error;
        } finally {
          cancel.release();
        }
      } finally {
        sharedSlots?.release();
      }
    } finally {
      slots.release();
    }
  };
  const stopped = (input: RolloutInput): RolloutState<Data> => {
    const state = createState<Data>(input, {
      model: options.model,
      sampling,
      toolDefs: env.toolDefs(),
      signal: AbortSignal.abort(),
    });
    recordError(state, new RunStoppedError(stop.error!));
    state.stopCondition = "has_error";
    return state;
  };

  // Null: no rollout of the unit started, because the run had stopped; it is left out.
  const generateUnit = async (unit: RolloutInput[], index: number): Promise<RolloutState<Data>[] | null> => {
    const client = clients[index % clients.length]!;
    const started = await Promise.all(unit.map((input) => rollout(input, client)));
    if (started.every((state) => state === null)) return null;
    const states = started.map((state, i) => state ?? stopped(unit[i]!));
    const maxRetries = options.maxRetries ?? 0;
    for (let attempt = 1; attempt <= maxRetries && !stop.error; attempt++) {
      const failed = states.flatMap((state, i) => (state.retryable ? [i] : []));
      if (failed.length === 0) break;
      // The wait is a child of the run's scope, as a rollout is, so the run's signal keeps one
      // listener however many groups wait at once (one each warned of a leak past ten).
      const wait = scope.child();
      try {
        await sleep((options.retryDelaySeconds ?? defaultDelay)(attempt) * 1000, wait.signal);
      } catch (error) {
        // A stop aborts every child: the wait ends early, and the loop ends on stop.error.
        if (!stop.error || options.signal?.aborted) throw error;
      } finally {
        wait.release();
      }
      await Promise.all(
        failed.map(async (i) => {
          // A retry the stop kept from starting leaves the failure it retried.
          states[i] = (await rollout(unit[i]!, client)) ?? states[i]!;
        }),
      );
    }
    return states;
  };
  const scoreUnit = async (states: RolloutState<Data>[] | null): Promise<void> => {
    if (states === null) return;
    const turn = scoringSlots.acquire();
    if (turn) await turn;
    try {
      await env.score(states, scoreOptions);
    } finally {
      scoringSlots.release();
    }
    const done = states.map((state) => toRecord(state, recordOptions));
    records.push(...done);
    await options.onGroup?.(done, states as RolloutState<unknown>[]);
  };

  const remote = options.runUnit;
  // A remote unit is one request holding all its rollouts, so units, not rollouts, take the slots.
  const largest = units.reduce((most, unit) => Math.max(most, unit.length), 1);
  const unitSlots = new Slots(Math.max(1, Math.floor((options.maxConcurrent ?? 32) / largest)));
  const runRemote = async (unit: RolloutInput[]): Promise<void> => {
    const done = await unitSlots.with(async () => {
      if (options.signal?.aborted) throw new CancelledError();
      return remote!(unit, { signal: options.signal });
    });
    records.push(...done);
    await options.onGroup?.(done, undefined);
  };

  let results: PromiseSettledResult<unknown>[];
  if (remote) {
    results = await Promise.allSettled(units.map(runRemote));
  } else if (options.interleaveScoring ?? true) {
    results = await Promise.allSettled(units.map((unit, i) => generateUnit(unit, i).then(scoreUnit)));
  } else {
    // Every rollout first, then the scoring; units generated before a cancel are still scored and kept.
    const generated = await Promise.allSettled(units.map(generateUnit));
    const scored = await Promise.allSettled(
      generated.flatMap((result) => (result.status === "fulfilled" ? [scoreUnit(result.value)] : [])),
    );
    results = [...generated.filter((result) => result.status === "rejected"), ...scored];
  }
  scope.dispose();
  for (const result of results) {
    if (result.status === "fulfilled") continue;
    if (result.reason instanceof CancelledError || options.signal?.aborted) cancelled = true;
    else throw result.reason;
  }
  records.sort((a, b) => a.example_id - b.example_id || a.rollout_index - b.rollout_index);
  return { records, cancelled, stoppedBy: stop.error };
}

/** Inputs grouped by example id, groups in order of first appearance. */
export function groupByExample(inputs: RolloutInput[]): RolloutInput[][] {
  const groups = new Map<number, RolloutInput[]>();
  for (const input of inputs) {
    const group = groups.get(input.exampleId);
    if (group) group.push(input);
    else groups.set(input.exampleId, [input]);
  }
  return [...groups.values()];
}
