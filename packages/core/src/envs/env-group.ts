/**
 * Several environments as one: their datasets are concatenated (each row tagged with
 * `info.env_id` and renumbered), each rollout is routed to its environment by `info.env_id`, and
 * every rollout reports the union of all reward and metric names, 0 where its environment has none.
 *
 * @example
 * const env = new EnvGroup({ envs: [gsm8k, reverseText], names: ["gsm8k", "reverse-text"] });
 */
import { Dataset } from "../datasets/index.ts";
import { AuthoringError } from "../errors.ts";
import type { RolloutInput, RolloutState } from "../rollout/rollout-state.ts";
import { type AnyEnvironment, EnvGroupScorer, memberOf } from "./env-group-scorer.ts";
import { Environment, type RolloutContext } from "./environment.ts";

/** Options of `EnvGroup`: the members and their names. */
export interface EnvGroupOptions {
  envs: AnyEnvironment[];
  /** One unique name per environment; default `env_0`, `env_1`, ... */
  names?: string[];
}

/** Several environments as one: each row goes to the member its `info.env_id` names. */
export class EnvGroup extends Environment {
  readonly envs: ReadonlyMap<string, AnyEnvironment>;

  constructor(options: EnvGroupOptions) {
    const names = options.names ?? options.envs.map((_, i) => `env_${i}`);
    if (names.length !== options.envs.length) {
      throw new AuthoringError(
        `EnvGroup got ${options.envs.length} environments but ${names.length} names: give one name per environment`,
      );
    }
    if (new Set(names).size !== names.length)
      throw new AuthoringError(
        `EnvGroup names must be unique, got ${names.join(", ")}: rename the duplicates`,
      );
    const members = new Map(names.map((name, i) => [name, options.envs[i]!]));
    super({
      dataset: () => concatSplit(members, "train"),
      evalDataset: () => concatSplit(members, "eval"),
      rubric: new EnvGroupScorer(members),
    });
    this.envs = members;
  }

  async rollout(input: RolloutInput, ctx: RolloutContext): Promise<RolloutState> {
    return this.member(input.info.env_id).rollout(input, ctx);
  }

  override async score(states: RolloutState[], options: { independent: boolean }): Promise<void> {
    const byEnv = new Map<string, RolloutState[]>();
    for (const state of states) {
      const name = String(state.info.env_id);
      byEnv.set(name, [...(byEnv.get(name) ?? []), state]);
    }
    for (const [name, group] of byEnv) await this.member(name).score(group, options);
    const all = this.metricNames();
    for (const state of states) {
      for (const name of all) state.metrics[name] ??= 0;
    }
  }

  override metricNames(): string[] {
    return [...new Set([...this.envs.values()].flatMap((env) => env.metricNames()))];
  }

  override async teardown(): Promise<void> {
    const results = await Promise.allSettled([...this.envs.values()].map((env) => env.teardown()));
    const errors = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    if (errors.length > 0) throw new AggregateError(errors, "environment teardown failed");
  }

  private member(envId: unknown): AnyEnvironment {
    return memberOf(this.envs, envId);
  }
}

async function concatSplit(members: Map<string, AnyEnvironment>, split: "train" | "eval"): Promise<Dataset> {
  const rows: Record<string, unknown>[] = [];
  for (const [name, env] of members) {
    const { inputs } = await env.inputs({ split, rolloutsPerExample: 1 });
    for (const input of inputs) {
      rows.push({
        prompt: input.prompt,
        answer: input.answer,
        task: input.task,
        info: { ...input.info, env_id: name },
        example_id: rows.length,
      });
    }
  }
  return Dataset.fromRows(rows, { source: "EnvGroup" });
}
