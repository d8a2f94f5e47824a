/**
 * The rubric of an `EnvGroup`: each rollout is scored by the rubric of the member its
 * `info.env_id` names. It reports the union of the members' reward and metric names (0 where a
 * rollout's member has none), and needs the whole group when any member does, so the checks that
 * ask an environment's rubric (independent scoring, a v1 run) answer for a group as for its members.
 */
import { AuthoringError } from "../errors.ts";
import type { RolloutState } from "../rollout/rollout-state.ts";
import { type Score, Scorer } from "../rubrics/scorer.ts";
import type { Environment } from "./environment.ts";

// biome-ignore lint/suspicious/noExplicitAny: members may have any state type
export type AnyEnvironment = Environment<any>;

/** The member of `members` a row's `info.env_id` names; an AuthoringError naming them when none. */
export function memberOf(members: ReadonlyMap<string, AnyEnvironment>, envId: unknown): AnyEnvironment {
  const env = members.get(String(envId));
  if (!env) {
    throw new AuthoringError(
      `no environment named "${String(envId)}" in this group: set the row's info.env_id to one of ${[...members.keys()].join(", ")}`,
    );
  }
  return env;
}

/** Scores each rollout with its member's rubric; see the file comment. */
export class EnvGroupScorer extends Scorer {
  constructor(private readonly members: ReadonlyMap<string, AnyEnvironment>) {
    super();
  }

  names(): string[] {
    return [...new Set([...this.members.values()].flatMap((env) => env.rubric.names()))];
  }

  requiresGroup(): boolean {
    return [...this.members.values()].some((env) => env.rubric.requiresGroup());
  }

  async compute(states: RolloutState[]): Promise<Score[]> {
    const byMember = new Map<string, number[]>();
    states.forEach((state, i) => {
      const name = String(state.info.env_id);
      memberOf(this.members, name);
      byMember.set(name, [...(byMember.get(name) ?? []), i]);
    });
    const zeros = Object.fromEntries(this.names().map((name) => [name, 0]));
    const scores: Score[] = new Array(states.length);
    for (const [name, indices] of byMember) {
      const own = await memberOf(this.members, name).rubric.compute(indices.map((i) => states[i]!));
      own.forEach((score, j) => {
        scores[indices[j]!] = { ...score, metrics: { ...zeros, ...score.metrics } };
      });
    }
    return scores;
  }
}
