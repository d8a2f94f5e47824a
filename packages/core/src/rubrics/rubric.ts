/**
 * A rubric: weighted reward functions and weight-0 metrics, each taking one `RewardContext`.
 * reward = Σ weight × score; every function's raw score is reported under its name in `metrics`.
 * Functions run in the order they were added; across the rollouts of a group, one function runs
 * on all of them concurrently before the next function starts.
 *
 * @example
 * const rubric = new Rubric({ parser })
 *   .addReward(exactMatch)
 *   .addReward(formatScore, { weight: 0.2 })
 *   .addMetric(answerLength);
 */

import { AuthoringError } from "../errors.ts";
import { Parser } from "../parsers/parser.ts";
import type { ScoringError } from "../records/rollout-record.ts";
import { errorData, type RolloutState } from "../rollout/rollout-state.ts";
import { type GroupRewardFn, type RewardContext, type RewardFn, rewardContext } from "./reward-context.ts";
import { type Score, Scorer } from "./scorer.ts";

export type RubricFunction<Data> =
  | { type: "rollout"; name: string; weight: number; fn: RewardFn<Data> }
  | { type: "group"; name: string; weight: number; fn: GroupRewardFn<Data> };

/** How a function is added to a rubric: its name and weight (0 makes it a metric). */
export interface AddOptions {
  /** Multiplier of the score in the reward; metrics have 0. Default 1 for rewards. */
  weight?: number;
  /** Name under which the score is reported; default: the function's name. */
  name?: string;
}

export type RewardSpec<Data> = RewardFn<Data> | ({ fn: RewardFn<Data> } & AddOptions);
export type GroupRewardSpec<Data> = GroupRewardFn<Data> | ({ fn: GroupRewardFn<Data> } & AddOptions);

/** Options of `Rubric`: its parser and functions. */
export interface RubricOptions<Data> {
  /** Passed to every function as `ctx.parser`; default: the base `Parser`. */
  parser?: Parser;
  rewards?: RewardSpec<Data>[];
  metrics?: RewardSpec<Data>[];
  groupRewards?: GroupRewardSpec<Data>[];
  /**
   * The highest reward a rollout can earn, when it is not the sum of the reward weights (rewards
   * that exclude each other, or scores above 1); `vf eval validate` checks references against it.
   */
  maxReward?: number;
}

/** Weighted reward functions and weight-0 metrics; their weighted sum is a rollout's reward. */
export class Rubric<Data = Record<string, unknown>> extends Scorer<Data> {
  readonly parser: Parser;
  /** The declared maximum reward (`RubricOptions.maxReward`); undefined: the sum of the reward weights. */
  readonly maxReward: number | undefined;
  private readonly functions: RubricFunction<Data>[] = [];

  constructor(options: RubricOptions<Data> = {}) {
    super();
    this.parser = options.parser ?? new Parser();
    this.maxReward = options.maxReward;
    for (const spec of options.rewards ?? []) this.addReward(...unpack(spec));
    for (const spec of options.metrics ?? []) this.addMetric(...unpack(spec));
    for (const spec of options.groupRewards ?? []) this.addGroupReward(...unpack(spec));
  }

  /** Adds a reward function (weight 1 unless given). */
  addReward(fn: RewardFn<Data>, options: AddOptions = {}): this {
    return this.add({ type: "rollout", fn, weight: options.weight ?? 1, name: nameOf(fn, options) });
  }

  /** Adds a metric: reported, weight 0 unless given. */
  addMetric(fn: RewardFn<Data>, options: AddOptions = {}): this {
    return this.add({ type: "rollout", fn, weight: options.weight ?? 0, name: nameOf(fn, options) });
  }

  /** Adds a function that scores all rollouts of an example at once (weight 1 unless given). */
  addGroupReward(fn: GroupRewardFn<Data>, options: AddOptions = {}): this {
    return this.add({ type: "group", fn, weight: options.weight ?? 1, name: nameOf(fn, options) });
  }

  /** The functions in the order they run. */
  get entries(): readonly RubricFunction<Data>[] {
    return this.functions;
  }

  names(): string[] {
    return this.functions.map((f) => f.name);
  }

  requiresGroup(): boolean {
    return this.functions.some((f) => f.type === "group");
  }

  async compute(states: RolloutState<Data>[]): Promise<Score[]> {
    const scores: Score[] = states.map(() => ({ reward: 0, metrics: {}, errors: [] }));
    const contexts = states.map((state) => rewardContext(state, this.parser));
    for (const entry of this.functions) {
      const values = await runFunction(entry, contexts);
      values.forEach((value, i) => {
        const score = scores[i]!;
        if (value.ok) {
          score.metrics[entry.name] = value.score;
          score.reward += entry.weight * value.score;
        } else {
          score.metrics[entry.name] = 0;
          score.errors.push(value.error);
        }
      });
    }
    return scores;
  }

  private add(entry: RubricFunction<Data>): this {
    if (this.functions.some((f) => f.name === entry.name)) {
      throw new AuthoringError(
        `a reward or metric named "${entry.name}" is already in this rubric: pass { name } to rename`,
      );
    }
    if (!Number.isFinite(entry.weight))
      throw new AuthoringError(
        `weight of "${entry.name}" must be a finite number: pass e.g. { weight: 0.5 }`,
      );
    this.functions.push(entry);
    return this;
  }
}

type Outcome = { ok: true; score: number } | { ok: false; error: ScoringError };

async function runFunction<Data>(
  entry: RubricFunction<Data>,
  contexts: RewardContext<Data>[],
): Promise<Outcome[]> {
  if (entry.type === "rollout") {
    return Promise.all(contexts.map((ctx) => settle(entry.name, async () => entry.fn(ctx))));
  }
  try {
    const values = await entry.fn(contexts);
    if (!Array.isArray(values) || values.length !== contexts.length) {
      throw new AuthoringError(
        `group function returned ${Array.isArray(values) ? values.length : typeof values} values for ${contexts.length} rollouts: return one number per rollout`,
      );
    }
    return values.map((value) => check(entry.name, value));
  } catch (error) {
    return contexts.map(() => failed(entry.name, error));
  }
}

async function settle(name: string, run: () => Promise<number | boolean>): Promise<Outcome> {
  try {
    return check(name, await run());
  } catch (error) {
    return failed(name, error);
  }
}

function check(name: string, value: unknown): Outcome {
  if (typeof value === "boolean") return { ok: true, score: value ? 1 : 0 };
  if (typeof value === "number" && Number.isFinite(value)) return { ok: true, score: value };
  return failed(name, new TypeError(`returned ${String(value)}, expected a finite number`));
}

function failed(name: string, error: unknown): Outcome {
  return { ok: false, error: { function: name, error: errorData(error) } };
}

function nameOf(fn: { name: string }, options: AddOptions): string {
  const name = options.name ?? fn.name;
  if (!name) throw new AuthoringError("an anonymous reward function needs a name: pass { name: '...' }");
  return name;
}

function unpack<F>(spec: F | ({ fn: F } & AddOptions)): [F, AddOptions] {
  if (typeof spec === "function") return [spec, {}];
  const { fn, ...options } = spec as { fn: F } & AddOptions;
  return [fn, options];
}
