/**
 * The advice of `vf doctor`, from the baseline's numbers, following verifiers' rules of thumb:
 * a task the model never solves (or always solves) teaches nothing; reward diversity within groups
 * is what GRPO learns from, and larger groups find more of it; binary rewards want difficulty
 * filtering with oversampling, continuous ones usually do not; batch_size counts rollouts and must
 * be a multiple of rollouts_per_example. A reward that is the same for every rollout is the reward's
 * fault, not the batch's: no group size or filtering helps, so that is all the advice says.
 */
import { formatReward, REWARD_EPSILON, roundedThreshold, sameReward } from "./reward-numbers.ts";
import type { DoctorReport } from "./run-doctor.ts";

type Numbers = Omit<DoctorReport, "advice" | "suggestedConfig">;

/** Advice lines (most important first) and a config fragment that follows them. */
export function adviseTraining(n: Numbers): { advice: string[]; suggestedConfig: string } {
  const advice: string[] = [];
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  if (n.rollouts === 0) {
    return {
      advice: ["no rollout finished: check the environment and the model endpoint with vf eval"],
      suggestedConfig: "",
    };
  }
  if (n.withoutTokens > 0) {
    advice.push(
      `${pct(n.withoutTokens)} of rollouts came back without token ids: training needs a server that returns vLLM's token fields (vf serve, or vLLM); this endpoint can evaluate but not train`,
    );
  }
  if (n.errored > 0.1) {
    advice.push(
      `${pct(n.errored)} of rollouts ended with an error: fix those first (vf eval ${n.envId} -s, then vf view), as errors score 0 and teach the wrong thing`,
    );
  }
  const [low, high] = n.rewardRange;
  if (n.constantReward) {
    advice.push(constantRewardAdvice(n));
    return { advice, suggestedConfig: "" };
  }
  const position = (n.reward.mean - low) / (high - low);
  if (position < 0.05) {
    advice.push(
      `the baseline is near the bottom of the reward range (mean ${n.reward.mean.toFixed(3)}): the task is probably too hard for this model; use easier rows or fine-tune first (vf sft)`,
    );
  } else if (position > 0.85) {
    advice.push(
      `the baseline is near the top of the reward range (mean ${n.reward.mean.toFixed(3)}): the task is probably too easy; use harder rows, or filter easy groups out`,
    );
  }
  let group = n.rolloutsPerExample;
  if (n.groupsWithSpread < 0.5) {
    group = Math.min(32, Math.max(16, n.rolloutsPerExample * 2));
    advice.push(
      `only ${pct(n.groupsWithSpread)} of groups have any reward spread (GRPO learns from the others not at all): raise rollouts_per_example to ${group}, or the temperature`,
    );
  } else {
    advice.push(
      `${pct(n.groupsWithSpread)} of groups have reward spread (mean within-group std ${n.meanGroupStd.toFixed(3)}): rollouts_per_example = ${group} is enough`,
    );
  }
  const uniform = n.allFail + n.allPass;
  let filtering = "";
  if (n.binary && uniform > 0.2) {
    const factor = Math.min(4, Math.ceil((1 / Math.max(0.25, 1 - uniform)) * 2) / 2);
    const easy = roundedThreshold(high, "down");
    const hard = roundedThreshold(low, "up");
    filtering = `easy_threshold = ${easy}\nhard_threshold = ${hard}\noversampling_factor = ${factor}\n`;
    advice.push(
      `rewards are binary and ${pct(n.allFail)} of groups all fail, ${pct(n.allPass)} all pass: turn on difficulty filtering (easy_threshold = ${easy}, hard_threshold = ${hard}) with oversampling_factor = ${factor} to keep batches full`,
    );
  } else if (n.binary) {
    advice.push(
      `rewards are binary but only ${pct(uniform)} of groups all fail or all pass: difficulty filtering is optional`,
    );
  } else {
    advice.push(
      `rewards are continuous (${formatReward(low)} to ${formatReward(high)}): leave difficulty filtering off (groups with no spread are always dropped), or set thresholds only after looking at the reward distribution`,
    );
  }
  if (n.truncated > 0.1) {
    advice.push(
      `${pct(n.truncated)} of rollouts hit max_tokens (mean completion ${n.completionTokensMean.toFixed(0)} tokens): raise [sampling] max_tokens, or the reward is cut short`,
    );
  }
  const groups = Math.max(4, Math.min(16, Math.round(64 / group)));
  const batch = groups * group;
  advice.push(
    `batch_size counts rollouts: ${groups} groups of ${group} is batch_size = ${batch} (a multiple of rollouts_per_example); raise it for stabler steps, lower it for faster ones`,
  );
  const suggestedConfig = `rollouts_per_example = ${group}\nbatch_size = ${batch}\nmax_concurrent = ${Math.max(batch, group)}\n${filtering}`;
  return { advice, suggestedConfig };
}

/** What to do when every rollout scored the same: look at the reward, or (at 0) the task. */
function constantRewardAdvice(n: Numbers): string {
  const [low, high] = n.rewardRange;
  const value = formatReward(n.reward.mean);
  const exact = high === low ? "" : ` (all within ${REWARD_EPSILON} of it)`;
  const lead = `every one of the ${n.rollouts} rollouts scored ${value}${exact}, so the reward tells none apart and RL has nothing to learn from`;
  const look = `look at what the rubric scores (vf eval ${n.envId} -s, then vf view)`;
  const noBatch = "more rollouts per example or larger batches will not help";
  if (sameReward(low, 0)) {
    return `${lead}; ${noBatch}: ${look}; if the reward can fire at all, the task is too hard for this model: use easier rows or fine-tune first (vf sft)`;
  }
  return `${lead}. The reward itself is the problem, not the batch (${noBatch}): ${look}, e.g. a reward that ignores the completion, or a constant term weighted into it`;
}
