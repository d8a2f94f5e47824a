/**
 * `vf doctor`: the first-run protocol before training (verifiers' "RL rules of thumb"). A small
 * baseline on the training rows the run would see, then what decides whether RL can learn from
 * them: is the reward spread within groups (GRPO learns only from groups whose rollouts differ), how
 * many groups all fail or all pass, whether rewards are binary, truncation and errors, and whether
 * the server returns the token ids training needs. The advice follows from those numbers.
 */
import { type Environment, generate, type ModelClient, type SamplingArgs } from "@vf-rl/core";
import type { RolloutRecord } from "@vf-rl/core/results";
import { meanStd } from "../algorithm/advantages.ts";
import { completionTokens, rewardInterval } from "../metrics/step-report.ts";
import { mixSeed, PolicyClient } from "../rollouts/policy-client.ts";
import { adviseTraining } from "./advise-training.ts";
import { sameReward } from "./reward-numbers.ts";

/** Options of `runDoctor`. */
export interface DoctorOptions {
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  envId: string;
  clients: ModelClient | ModelClient[];
  model: string;
  /** Training rows to try (default 20). */
  numExamples?: number;
  /** Rollouts per row, the group size (default 8). */
  rolloutsPerExample?: number;
  sampling?: SamplingArgs;
  maxConcurrent?: number;
  /**
   * Seed of the row shuffle and of every request's sampling (default 0): the same seed, model and
   * rows give the same report.
   */
  seed?: number;
  signal?: AbortSignal;
}

/** The numbers of a doctor run and the advice drawn from them. */
export interface DoctorReport {
  envId: string;
  model: string;
  groups: number;
  rolloutsPerExample: number;
  rollouts: number;
  /** Mean reward and its 95% interval. */
  reward: { mean: number; std: number; ci95: [number, number] };
  /** Share of groups whose rollouts did not all score the same. */
  groupsWithSpread: number;
  /** Mean of the standard deviation of rewards within each group. */
  meanGroupStd: number;
  /** Share of groups where every rollout scored ≤ the lowest reward seen (all fail) or ≥ the highest (all pass). */
  allFail: number;
  allPass: number;
  /** Lowest and highest reward seen, and whether every reward was one of those two (and they differ). */
  rewardRange: [number, number];
  binary: boolean;
  /**
   * Whether every rollout scored the same, up to float noise (`REWARD_EPSILON`): then the reward
   * cannot tell rollouts apart, whatever the group size.
   */
  constantReward: boolean;
  /** Share of rollouts that hit max_tokens, that ended with an error, that came without token ids. */
  truncated: number;
  errored: number;
  withoutTokens: number;
  completionTokensMean: number;
  /** Advice lines, most important first. */
  advice: string[];
  /** A config fragment that follows the advice. */
  suggestedConfig: string;
  cancelled: boolean;
}

/** Runs the baseline and returns the report. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const r = options.rolloutsPerExample ?? 8;
  const seed = options.seed ?? 0;
  const { inputs } = await options.env.inputs({
    split: "train",
    numExamples: options.numExamples ?? 20,
    rolloutsPerExample: r,
    shuffle: true,
    seed,
  });
  const result = await generate(options.env, inputs, {
    clients: seededClients(options.clients, new Set(inputs.map((input) => input.exampleId)).size, seed),
    model: options.model,
    sampling: options.sampling ?? {},
    maxConcurrent: options.maxConcurrent ?? 32,
    maxRetries: 2,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // A rejected key or an unknown model says nothing about the environment: say that instead.
  if (result.stoppedBy) throw result.stoppedBy;
  const records = result.records;
  const groups_P = groupRecords(records);
  const rewards = records.map((x) => x.reward);
  const low = Math.min(...rewards);
  const high = Math.max(...rewards);
  const interval = rewardInterval(rewards);
  const constant = records.length > 0 && sameReward(low, high);
  const hasSpread = (g: RolloutRecord[]) =>
    !sameReward(Math.max(...g.map((x) => x.reward)), Math.min(...g.map((x) => x.reward)));
  const share = (n: number, of: number) => (of > 0 ? n / of : 0);
  const report: Omit<DoctorReport, "advice" | "suggestedConfig"> = {
    envId: options.envId,
    model: options.model,
    groups: groups_P.length,
    rolloutsPerExample: r,
    rollouts: records.length,
    reward: {
      mean: interval.reward_mean,
      std: meanStd(rewards).std,
      ci95: [interval.ci95_low, interval.ci95_high],
    },
    groupsWithSpread: share(groups_P.filter(hasSpread).length, groups_P.length),
    meanGroupStd: meanStd(groups_P.map((g) => meanStd(g.map((x) => x.reward)).std)).mean,
    allFail: share(
      groups_P.filter((g) => !constant && g.every((x) => sameReward(x.reward, low))).length,
      groups_P.length,
    ),
    allPass: share(
      groups_P.filter((g) => !constant && g.every((x) => sameReward(x.reward, high))).length,
      groups_P.length,
    ),
    rewardRange: records.length > 0 ? [low, high] : [0, 0],
    binary:
      records.length > 0 && !constant && rewards.every((x) => sameReward(x, low) || sameReward(x, high)),
    constantReward: constant,
    truncated: share(records.filter((x) => x.is_truncated).length, records.length),
    errored: share(records.filter((x) => x.error !== null).length, records.length),
    withoutTokens: share(
      records.filter((x) => x.trajectory.length > 0 && x.trajectory.some((s) => s.tokens === null)).length,
      records.length,
    ),
    completionTokensMean: meanStd(records.map(completionTokens)).mean,
    cancelled: result.cancelled,
  };
  return { ...report, ...adviseTraining(report) };
}

/**
 * One client per group (generate's clients are used in turn, one per group), each asking for token
 * ids and logprobs and seeding every request as vf train does (PolicyClient): from the group's seed,
 * the conversation, and how often the group sent it, so rollouts of a group differ but a repeated
 * run samples the same tokens. Unseeded, the rewards of a run are a draw, and so is the advice.
 */
function seededClients(clients: ModelClient | ModelClient[], groups: number, seed: number): ModelClient[] {
  const policies = (Array.isArray(clients) ? clients : [clients]).map(
    (inner) => new PolicyClient({ inner, version: () => 0 }),
  );
  return Array.from({ length: Math.max(groups, 1) }, (_, g) =>
    policies[g % policies.length]!.forGroup(mixSeed(seed, g)),
  );
}

function groupRecords(records: readonly RolloutRecord[]): RolloutRecord[][] {
  const groups = new Map<number, RolloutRecord[]>();
  for (const record of records) {
    const group = groups.get(record.example_id);
    if (group) group.push(record);
    else groups.set(record.example_id, [record]);
  }
  return [...groups.values()];
}
