/**
 * prime-rl's off-policy bound, `max_off_policy_steps`. A rollout trained at step n (the batch of
 * step n, 0-based, whose gradient is taken at the policy of version n) is n − v steps stale, v being
 * the oldest policy any of its turns was sampled from; time spent waiting in the carry buffer
 * counts. Rollouts past the bound are dropped, in two places:
 *
 * - before a batch is cut, the carried groups too old for the step they would train at (a group
 *   shares one dispatch version, so it ages out whole);
 * - in a cut batch, before it is trained, any rollout still past the bound (an env server's or an
 *   agent's whose turns came from an older policy).
 *
 * Which rollouts go depends on versions and step numbers alone, never on timing, so a resumed run
 * drops exactly what the unbroken run drops.
 */
import type { CarryBuffer } from "../rollouts/carry-buffer.ts";
import type { CollectedBatch, TrainGroup } from "../rollouts/collect-batch.ts";

/** What the bound dropped from one batch. */
export interface StaleDrops {
  /** Whole groups: carried ones that aged out, and groups none of whose rollouts were young enough. */
  groups: number;
  /** Rollouts, those of the dropped groups included (prime-rl's off_policy/dropped). */
  rollouts: number;
}

/** The bound of a run with `maxOffPolicySteps`. */
export class OffPolicyBound {
  constructor(readonly maxOffPolicySteps: number) {
    if (!Number.isInteger(maxOffPolicySteps) || maxOffPolicySteps < 0) {
      throw new RangeError(`max_off_policy_steps must be a whole number ≥ 0, not ${maxOffPolicySteps}`);
    }
  }

  /** Whether a rollout sampled by policy `version` is too old to train at step `step`. */
  isStale(version: number, step: number): boolean {
    return step - version > this.maxOffPolicySteps;
  }

  /** Drops the carried groups whose oldest rollout is too old for step `step`. */
  ageOut(carry: CarryBuffer, step: number): StaleDrops {
    const dropped = carry.dropWhere((group) => group.versions_G.some((v) => this.isStale(v, step)));
    return { groups: dropped.length, rollouts: dropped.reduce((n, g) => n + g.records_G.length, 0) };
  }

  /** The groups of a batch to train at step `step` without their rollouts past the bound. */
  sweep(groups_P: readonly TrainGroup[], step: number): { groups_P: TrainGroup[]; dropped: StaleDrops } {
    const dropped: StaleDrops = { groups: 0, rollouts: 0 };
    const kept_P: TrainGroup[] = [];
    for (const group of groups_P) {
      const young_G = group.versions_G.map((v) => !this.isStale(v, step));
      const young = young_G.filter(Boolean).length;
      dropped.rollouts += group.versions_G.length - young;
      if (young === 0) dropped.groups += 1;
      else if (young === group.versions_G.length) kept_P.push(group);
      else {
        // the advantages stay as computed against the whole group: its baseline is still the mean
        // of every rollout the prompt got
        const keep = <T>(values: readonly T[]): T[] => values.filter((_, g) => young_G[g]);
        kept_P.push({
          envIndex: group.envIndex,
          records_G: keep(group.records_G),
          advantages_G: keep(group.advantages_G),
          items_G_D: keep(group.items_G_D),
          versions_G: keep(group.versions_G),
        });
      }
    }
    return { groups_P: kept_P, dropped };
  }

  /**
   * The batch of step `step` as it is trained: swept, and its counts telling what the bound dropped
   * (`aged`: the carried groups that aged out before it was cut).
   */
  apply(batch: CollectedBatch, step: number, aged: StaleDrops): CollectedBatch {
    const { groups_P, dropped } = this.sweep(batch.groups_P, step);
    return {
      ...batch,
      groups_P,
      counts: {
        ...batch.counts,
        kept: groups_P.length,
        stale: aged.groups + dropped.groups,
        staleRollouts: aged.rollouts + dropped.rollouts,
      },
    };
  }
}
