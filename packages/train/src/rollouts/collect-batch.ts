/**
 * Collects the groups of one training batch: draws prompts, runs `rollouts_per_example` rollouts
 * of each through the environment (core's `generate`, the environment unchanged) against the
 * policy, turns rewards into advantages, and drops the groups the difficulty filter rejects,
 * drawing more (`oversampling_factor` per missing group) until the batch is full. A round that
 * yields more groups than needed keeps the first ones in draw order and counts the rest as surplus,
 * which wait in the carry buffer (carry-buffer.ts): the next batch takes them before drawing.
 * Within a kept group, the rollouts the rollout filters reject (algorithm/rollout-filters.ts) get no
 * training items; the batch is not refilled for them.
 */
import {
  type Environment,
  generate,
  type RolloutInput,
  type RolloutState,
  type SamplingArgs,
  UserError,
} from "@vf-rl/core";
import type { ModelResponse } from "@vf-rl/core/client";
import { needsRerun, type RolloutRecord } from "@vf-rl/core/results";
import type { BatchItem } from "@vf-rl/engine";
import { type EnvClient, remoteRunner } from "@vf-rl/env-server";
import { AdmissionGates } from "../algorithm/admission-gates.ts";
import { computeAdvantages } from "../algorithm/advantages.ts";
import { type DifficultyThresholds, judgeGroup } from "../algorithm/difficulty-filter.ts";
import type { TeacherReport } from "../algorithm/distillation.ts";
import { type LengthPenaltyWeights, lengthPenalties } from "../algorithm/length-penalty.ts";
import {
  countVerdicts,
  judgeRollouts,
  type RolloutFilterCounts,
  type RolloutFilterOptions,
} from "../algorithm/rollout-filters.ts";
import { rolloutItems } from "../algorithm/training-items.ts";
import type { GateConfig } from "../config/curriculum-config.ts";
import { BarrenGuard } from "./barren-guard.ts";
import type { CarryBuffer } from "./carry-buffer.ts";
import { mixSeed, type PolicyClient } from "./policy-client.ts";
import type { PromptSource } from "./prompt-source.ts";
import type { RowsSeen } from "./row-sampler.ts";

/** One group that made it into the batch. */
export interface TrainGroup {
  /** Which [[env]] it came from. */
  envIndex: number;
  records_G: RolloutRecord[];
  advantages_G: number[];
  /** The training items of each rollout (one, or one per turn when the prefix broke). */
  items_G_D: BatchItem[][];
  /** The oldest policy version any turn of each rollout was sampled from. */
  versions_G: number[];
}

/** Counts of what happened to the groups drawn for one batch. */
export interface FilterCounts {
  drawn: number;
  kept: number;
  tooEasy: number;
  tooHard: number;
  noSpread: number;
  /** Dropped because a rollout kept failing on the server (infrastructure errors after retries). */
  errored: number;
  /** Kept by the difficulty filter but rejected by an admission gate ([env.curriculum.gates]). */
  rejected: number;
  /** Kept by the filter but beyond what the batch needed: carried to the next batch. */
  surplus: number;
  /** Taken from the carry buffer (kept by an earlier batch's round), before any drawing. */
  carried: number;
  /** Dropped as too stale to train (max_off_policy_steps; loop/staleness.ts): groups, and rollouts. */
  stale: number;
  staleRollouts: number;
}

/** A full batch and how it was collected. */
export interface CollectedBatch {
  groups_P: TrainGroup[];
  counts: FilterCounts;
  /** Every rollout generated for this batch, filtered ones included. */
  all_records: RolloutRecord[];
  /** The [[env]] index of each of `all_records`. */
  all_records_env: number[];
  /** Groups drawn from each [[env]] for this batch (sampled in its rounds). */
  drawn_E: number[];
  /** Rounds of sampling it took. */
  rounds: number;
  generationMs: number;
  /** Where each environment's rows stand after this batch (its curriculum's sampler). */
  rows_E: RowsSeen[];
  /** Groups of this batch each environment's gates rejected, by gate name. */
  rejected_E: Record<string, number>[];
  /** Under [algo] type "opd": what the teacher said of the batch (algorithm/distillation.ts). */
  teacher?: TeacherReport;
  /** What the rollout filters flagged and left out of the batch's groups (algorithm/rollout-filters.ts). */
  rolloutFilters: RolloutFilterCounts;
}

/** An environment to train on. */
export interface TrainEnv {
  id: string;
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  /** The env server running its rollouts (`[[env]] address`); absent: they run in this process. */
  server?: EnvClient;
}

/**
 * `generate`'s runUnit for an environment served elsewhere: the server calls the policy's
 * inference server itself, asking for token ids and logprobs. Its calls carry no per-group seed.
 */
export function serverRunner(server: EnvClient, client: PolicyClient, model: string, sampling: SamplingArgs) {
  return remoteRunner({
    client: server,
    endpoints: [{ type: "openai_chat_completions", baseUrl: client.baseUrl, apiKeyVar: null, headers: {} }],
    model,
    sampling,
    wantTokens: true,
    maxRetries: 2,
  });
}

/** Options of `collectBatch`. */
export interface CollectBatchOptions {
  envs_E: readonly TrainEnv[];
  source: PromptSource;
  client: PolicyClient;
  model: string;
  sampling: SamplingArgs;
  /** Groups the batch needs. */
  groups: number;
  rolloutsPerExample: number;
  oversamplingFactor: number;
  thresholds: DifficultyThresholds;
  normalizeStd: boolean;
  /** prime-rl's length penalty on the rewards before centring; none when absent. */
  lengthPenalty?: LengthPenaltyWeights;
  maxConcurrent: number;
  /** Index of the batch, mixed into the sampling seeds. */
  batchIndex: number;
  seed: number;
  signal?: AbortSignal;
  /** Batches' worth of groups drawn in a row without one kept before giving up (default 10; barren-guard.ts). */
  maxBarrenBatches?: number;
  /** Which rollouts of a kept group are trained on ([[filters]], filter_zero_advantages); absent: all. */
  rolloutFilters?: RolloutFilterOptions;
  /** Groups earlier batches kept beyond their need, taken first; the surplus goes there (absent: dropped). */
  carry?: CarryBuffer;
  /** Each environment's admission gates by name ([env.curriculum.gates]; absent: none). */
  gates_E?: readonly (Readonly<Record<string, GateConfig>> | undefined)[];
}

/** Collects one batch; see the file comment. Throws CancelledError-carrying results via `signal`. */
export async function collectBatch(options: CollectBatchOptions): Promise<CollectedBatch> {
  const started = performance.now();
  const counts: FilterCounts = {
    drawn: 0,
    kept: 0,
    tooEasy: 0,
    tooHard: 0,
    noSpread: 0,
    errored: 0,
    rejected: 0,
    surplus: 0,
    carried: 0,
    stale: 0,
    staleRollouts: 0,
  };
  const groups_P: TrainGroup[] = options.carry?.take(options.groups) ?? [];
  counts.carried = groups_P.length;
  counts.kept = groups_P.length;
  const all_records: RolloutRecord[] = [];
  const all_records_env: number[] = [];
  const drawn_E = options.envs_E.map(() => 0);
  let rounds = 0;
  const barren = new BarrenGuard(options.groups, options.maxBarrenBatches ?? 10);
  const gates = new AdmissionGates(options.gates_E ?? []);
  while (groups_P.length < options.groups) {
    if (options.signal?.aborted) break;
    const missing = options.groups - groups_P.length;
    const draws = Math.ceil(missing * options.oversamplingFactor);
    const drawn = await runRound(options, draws, counts.drawn);
    rounds += 1;
    counts.drawn += draws;
    let keptThisRound = 0;
    for (const group of drawn) {
      all_records.push(...group.records_G);
      for (const _ of group.records_G) all_records_env.push(group.envIndex);
      drawn_E[group.envIndex]! += 1;
      if (group.errored) {
        counts.errored += 1;
        continue;
      }
      const rewards_G = group.records_G.map((r) => r.reward);
      // in draw order, before the next round draws: a resumed run's samplers see what the unbroken run's saw
      const meanReward = rewards_G.reduce((a, b) => a + b, 0) / rewards_G.length;
      options.source.observe(group.envIndex, group.records_G[0]!.example_id, meanReward);
      const verdict = judgeGroup(rewards_G, options.thresholds);
      if (verdict === "too_easy") counts.tooEasy += 1;
      else if (verdict === "too_hard") counts.tooHard += 1;
      else if (verdict === "no_spread") counts.noSpread += 1;
      if (verdict !== "keep") continue;
      if (!gates.admit(group.envIndex, groupAdvantages(group, options))) {
        counts.rejected += 1;
        continue;
      }
      keptThisRound += 1;
      if (groups_P.length >= options.groups) {
        counts.surplus += 1;
        options.carry?.put(trainGroup(group, options));
        continue;
      }
      groups_P.push(trainGroup(group, options));
    }
    counts.kept = groups_P.length;
    barren.record(drawn.length, keptThisRound);
    if (barren.exhausted && !options.signal?.aborted) {
      throw new UserError(
        `${barren.barrenDraws} groups drawn in a row gave no group worth training on (${describeCounts(counts)}): ` +
          "the task is too easy or too hard for this model, or every rollout of a group scores the same; " +
          "check the rewards with vf doctor, loosen easy_threshold/hard_threshold, raise rollouts_per_example or the temperature",
      );
    }
  }
  return {
    groups_P,
    counts,
    all_records,
    all_records_env,
    drawn_E,
    rounds,
    generationMs: performance.now() - started,
    rolloutFilters: filterCounts(groups_P, options),
    rows_E: options.source.seen(),
    rejected_E: gates.rejected(),
  };
}

/** "3 too easy, 2 too hard, ..." for messages. */
export function describeCounts(counts: FilterCounts): string {
  return `${counts.drawn} drawn, ${counts.tooEasy} too easy, ${counts.tooHard} too hard, ${counts.noSpread} with no reward spread, ${counts.errored} errored, ${counts.rejected} rejected by gates`;
}

/** A generated group before filtering. */
interface DrawnGroup {
  envIndex: number;
  records_G: RolloutRecord[];
  versions_G: number[];
  errored: boolean;
}

/** Draws `draws` prompts and runs their groups, each environment's through one `generate` call. */
async function runRound(
  options: CollectBatchOptions,
  draws: number,
  drawOffset: number,
): Promise<DrawnGroup[]> {
  const r = options.rolloutsPerExample;
  const prompts = Array.from({ length: draws }, () => options.source.next());
  const results: DrawnGroup[] = new Array(draws);
  const envCount = options.envs_E.length;
  await Promise.all(
    options.envs_E.map(async ({ env, server }, envIndex) => {
      // An env server's rollouts were sampled from the policy held when they were sent, or a newer one.
      const dispatched = options.client.version;
      // draw slots of this environment; each drawn group gets a unique example id for `generate`
      // (the same row may be drawn twice in a round), and the row's own id is put back afterwards
      const slots = prompts.flatMap((p, draw) => (p.envIndex === envIndex ? [draw] : []));
      if (slots.length === 0) return;
      const inputs: RolloutInput[] = slots.flatMap((draw) =>
        Array.from({ length: r }, (_, i) => ({ ...prompts[draw]!.input, exampleId: draw, rolloutIndex: i })),
      );
      const clients = slots.map((draw) =>
        options.client.forGroup(mixSeed(options.seed, options.batchIndex, drawOffset + draw)),
      );
      const share = Math.max(r, Math.floor((options.maxConcurrent * slots.length) / draws));
      const { stoppedBy } = await generate(env, inputs, {
        clients,
        model: options.model,
        sampling: options.sampling,
        maxConcurrent: envCount === 1 ? options.maxConcurrent : share,
        maxRetries: 2,
        retryDelaySeconds: (attempt) => 0.25 * attempt,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(server ? { runUnit: serverRunner(server, options.client, options.model, options.sampling) } : {}),
        onGroup: (records, states) => {
          const draw = records[0]!.example_id;
          const realId = prompts[draw]!.input.exampleId;
          results[draw] = {
            envIndex,
            records_G: records.map((record) => ({ ...record, example_id: realId })),
            versions_G: states
              ? states.map((state) => oldestVersion(state, options.client, dispatched))
              : records.map(() => dispatched),
            errored: states
              ? states.some((state) => state.retryable)
              : records.some((r) => needsRerun(r.error)),
          };
        },
      });
      // A rejected key or an unknown model would fail every later batch the same way.
      if (stoppedBy) throw stoppedBy;
    }),
  );
  // groups that did not finish (cancelled) are left out
  return results.filter((group) => group !== undefined);
}

/**
 * The oldest policy version of a rollout's turns; `dispatched` when none is known: an agent's turns
 * are the interception server's records of the calls, not the responses the policy client tagged,
 * and were sampled from the policy held when the group was sent, or a newer one.
 */
function oldestVersion(state: RolloutState<unknown>, client: PolicyClient, dispatched: number): number {
  let oldest = Number.POSITIVE_INFINITY;
  for (const turn of state.turns) {
    const version = client.versionOf(turn.response as ModelResponse);
    if (version !== undefined) oldest = Math.min(oldest, version);
  }
  return Number.isFinite(oldest) ? oldest : dispatched;
}

/** A group's advantages: its rewards, less the length penalty when set, centred on their mean. */
function groupAdvantages(group: DrawnGroup, options: CollectBatchOptions): number[] {
  const rewards_G = group.records_G.map((r) => r.reward);
  const penalties_G = options.lengthPenalty
    ? lengthPenalties(
        rewards_G,
        group.records_G.map((r) => ({
          outputTokens: r.token_usage?.output_tokens ?? 0,
          inputTokens: r.token_usage?.input_tokens ?? 0,
          turns: r.trajectory.length,
        })),
        options.lengthPenalty,
      )
    : undefined;
  return computeAdvantages(rewards_G, { normalizeStd: options.normalizeStd, penalties_G });
}

function trainGroup(group: DrawnGroup, options: CollectBatchOptions): TrainGroup {
  const serverUrl = options.client.baseUrl;
  const advantages_G = groupAdvantages(group, options);
  const items_G_D = group.records_G.map((record, g) => {
    const built = rolloutItems(record.trajectory, advantages_G[g]!);
    if (built.ok) return built.items_D;
    if (built.reason === "empty") return [];
    throw new UserError(
      `the inference server at ${serverUrl} returned no ${built.reason === "no_tokens" ? "token ids (prompt_token_ids, choices[].token_ids)" : "logprobs"} ` +
        "for a model turn: training needs vLLM's token fields; serve the policy with vf serve, or vLLM with return_token_ids support",
    );
  });
  // a rollout the filters leave out keeps its reward in the baseline above, but no tokens to train
  const verdicts_G = verdicts(group.records_G, advantages_G, options);
  return {
    envIndex: group.envIndex,
    records_G: group.records_G,
    advantages_G,
    items_G_D: items_G_D.map((items_D, g) => (verdicts_G[g]?.dropped ? [] : items_D)),
    versions_G: group.versions_G,
  };
}

/** The rollout filters' verdicts on a group (none without filters: every rollout trained). */
function verdicts(
  records_G: readonly RolloutRecord[],
  advantages_G: readonly number[],
  options: CollectBatchOptions,
) {
  return options.rolloutFilters ? judgeRollouts(records_G, advantages_G, options.rolloutFilters) : [];
}

/** What the rollout filters did to a batch's groups; throws when they left it nothing to train on. */
function filterCounts(groups_P: readonly TrainGroup[], options: CollectBatchOptions): RolloutFilterCounts {
  const counts = countVerdicts(groups_P.flatMap((g) => verdicts(g.records_G, g.advantages_G, options)));
  const left = groups_P.some((g) => g.items_G_D.some((items_D) => items_D.length > 0));
  const detectors = Object.entries(counts.detectors).filter(([, c]) => c.dropped > 0);
  if (!left && !options.signal?.aborted && (detectors.length > 0 || counts.zeroAdvantage > 0)) {
    const why = [
      ...detectors.map(([type, c]) => `${c.dropped} ${type}`),
      ...(counts.zeroAdvantage > 0 ? [`${counts.zeroAdvantage} with a zero advantage`] : []),
    ];
    throw new UserError(
      `the rollout filters left batch ${options.batchIndex + 1} nothing to train on (${why.join(", ")}): ` +
        "the policy may have collapsed; set enforce = false in [[filters]] to count such rollouts only, or loosen window/prob_threshold/logprob_offset",
    );
  }
  return counts;
}
