/**
 * Saved rollouts as supervised data (rejection sampling, distillation): each kept rollout becomes
 * one conversation, its prompt followed by its completion, so a multi-turn rollout keeps the
 * environment's and tools' turns as context for the model's turns. What prime-rl's SFT reads as
 * prompt + completion and `vf sft` trains on.
 */
import type { Message } from "../messages/message.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";

/** Which rollouts to keep. Failed rollouts (an error recorded) are never kept. */
export interface SftFilter {
  /** Keep rollouts whose reward is at least this. */
  minReward?: number;
  /** Keep only the best rollout of each example (ties: the lowest rollout index). */
  bestOfGroup?: boolean;
}

/** The kept conversations and why the others were dropped. */
export interface SftSelection {
  conversations: Message[][];
  /** The kept rollouts, in the order of `conversations` (for their tool definitions, rewards, ...). */
  records: RolloutRecord[];
  dropped: { failed: number; belowMinReward: number; notBestOfGroup: number; noReply: number };
}

/** Filters `records` and turns each kept one into a conversation, in example and rollout order. */
export function selectSftConversations(
  records: readonly RolloutRecord[],
  filter: SftFilter = {},
): SftSelection {
  const dropped = { failed: 0, belowMinReward: 0, notBestOfGroup: 0, noReply: 0 };
  let kept = records.filter((record) => {
    if (record.error !== null) dropped.failed++;
    else if (!record.completion.some((m) => m.role === "assistant")) dropped.noReply++;
    else if (filter.minReward !== undefined && !(record.reward >= filter.minReward)) dropped.belowMinReward++;
    else return true;
    return false;
  });
  if (filter.bestOfGroup) {
    const best = new Map<string, RolloutRecord>();
    for (const record of kept) {
      const key = groupKey(record);
      const current = best.get(key);
      if (!current || isBetter(record, current)) best.set(key, record);
    }
    dropped.notBestOfGroup = kept.length - best.size;
    kept = [...best.values()];
  }
  kept.sort((a, b) => groupKey(a).localeCompare(groupKey(b)) || a.rollout_index - b.rollout_index);
  return {
    conversations: kept.map((record) => [...record.prompt, ...record.completion]),
    records: kept,
    dropped,
  };
}

/** One line for the user: how many were kept and why the rest were not. */
export function describeSftSelection(selection: SftSelection, total: number): string {
  const { failed, belowMinReward, notBestOfGroup, noReply } = selection.dropped;
  const reasons = [
    failed > 0 ? `${failed} failed` : "",
    noReply > 0 ? `${noReply} without a reply` : "",
    belowMinReward > 0 ? `${belowMinReward} below the minimum reward` : "",
    notBestOfGroup > 0 ? `${notBestOfGroup} not the best of their group` : "",
  ].filter(Boolean);
  const kept = `${selection.conversations.length} of ${total} rollouts kept`;
  return reasons.length > 0 ? `${kept} (dropped: ${reasons.join(", ")})` : kept;
}

// An environment group numbers each environment's rows from 0: the environment is part of the key.
function groupKey(record: RolloutRecord): string {
  const env = typeof record.info.env_id === "string" ? record.info.env_id : record.task;
  return `${env}\u0000${String(record.example_id).padStart(12, "0")}`;
}

function isBetter(a: RolloutRecord, b: RolloutRecord): boolean {
  return a.reward > b.reward || (a.reward === b.reward && a.rollout_index < b.rollout_index);
}
