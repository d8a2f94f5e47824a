/**
 * The alphabet-sort reward, with verifiers' `alphabet_sort` semantics: each turn's reply is compared
 * with the list expected after that turn as text (names lower-cased, one per line) by similarity;
 * the similarity is raised to `similarityPower` per turn (or, without `powerPerTurn`, the average
 * is raised once); turns are averaged, and a turn with no reply or no tagged list counts 0. A reply
 * with several tagged lists counts only when each list scores higher than the one before (the last
 * then counts), so trying many answers does not pay. Similarity is the LCS ratio, where verifiers
 * uses difflib's ratio, which approximates it from below.
 */
import { assistantMessages, contentText, lcsRatio, type Messages } from "@vf-rl/core";
import { TAG } from "./sort-task.ts";

/** How per-turn similarities become the reward. */
export interface SortRewardOptions {
  /** Exponent applied to the similarity; higher punishes small mistakes more. */
  similarityPower: number;
  /** Raise each turn's similarity to the power, then average (true); or average, then raise (false). */
  powerPerTurn: boolean;
}

const BLOCK = new RegExp(`<${TAG}>([\\s\\S]*?)</${TAG}>`, "g");

/** A list as compared: lines trimmed and lower-cased, blank lines dropped, joined by newlines. */
function comparable(lines: readonly string[]): string {
  return lines
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== "")
    .join("\n");
}

/** The similarity of each tagged list in `reply` with `expected`, in order (0 for an empty list). */
export function listSimilarities(reply: string, expected: readonly string[]): number[] {
  const target = comparable(expected);
  return [...reply.matchAll(BLOCK)].map((match) => {
    const given = comparable(match[1]!.split("\n"));
    return given === "" || target === "" ? 0 : lcsRatio(given, target);
  });
}

/** One turn's score: its only list's score, the last list's when every list improved on the one before, else 0. */
export function turnScore(reply: string, expected: readonly string[], options: SortRewardOptions): number {
  const scores = listSimilarities(reply, expected).map((similarity) =>
    options.powerPerTurn ? similarity ** options.similarityPower : similarity,
  );
  if (scores.length === 0) return 0;
  const improving = scores.every((score, i) => i === 0 || score > scores[i - 1]!);
  return improving ? scores[scores.length - 1]! : 0;
}

/**
 * The reward of a conversation: the turns' scores averaged over all expected turns (missing replies
 * count 0), raised to the power once at the end when `powerPerTurn` is false.
 *
 * @example
 * sortReward([{ role: "assistant", content: "<alphabetical_sorted>\nAda\nBen\n</alphabetical_sorted>" }],
 *   [["Ada", "Ben"]], { similarityPower: 4, powerPerTurn: true }) // 1
 */
export function sortReward(completion: Messages, expected: string[][], options: SortRewardOptions): number {
  const replies = assistantMessages(completion).map((message) => contentText(message.content));
  const scores = expected.map((list, turn) => turnScore(replies[turn] ?? "", list, options));
  const average = scores.reduce((sum, score) => sum + score, 0) / expected.length;
  return options.powerPerTurn ? average : average ** options.similarityPower;
}

/** The share of expected turns whose reply has exactly one tagged list, exactly right (case ignored). */
export function exactTurns(completion: Messages, expected: string[][]): number {
  const replies = assistantMessages(completion).map((message) => contentText(message.content));
  const exact = expected.filter((list, turn) => {
    const similarities = listSimilarities(replies[turn] ?? "", list);
    return similarities.length === 1 && similarities[0] === 1;
  });
  return exact.length / expected.length;
}
