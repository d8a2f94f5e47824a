/**
 * One alphabet-sort conversation: which names arrive on which turn, what the user says each turn,
 * and the sorted list expected after each turn. A row stores only the names per turn
 * (`info.turn_names`); everything else is derived from them here.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Messages } from "@vf-rl/core";
import { z } from "zod";
import { seededRandom } from "./seeded-random.ts";

/** The tag the sorted list goes in, every turn. */
export const TAG = "alphabetical_sorted";

/** The names arriving on each turn, in the order the user lists them; what a row's `info.turn_names` holds. */
export const TurnNames = z.array(z.array(z.string().min(1)).min(1)).min(1);
export type TurnNames = z.infer<typeof TurnNames>;

/** How many turns a conversation has and how many names arrive per turn, each drawn per row. */
export interface SortTaskShape {
  minTurns: number;
  maxTurns: number;
  minNames: number;
  maxNames: number;
}

/** Alphabetical order, ignoring case. */
export function sortNames(names: readonly string[]): string[] {
  return [...names].sort((a, b) => {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The list expected after each turn: every name so far, sorted. */
export function expectedLists(turns: TurnNames): string[][] {
  const seen: string[] = [];
  return turns.map((names) => {
    seen.push(...names);
    return sortNames(seen);
  });
}

/** What the user says on turn `turn` (0-based): the first names, or the names to add. */
export function userPrompt(turns: TurnNames, turn: number): string {
  const names = turns[turn]!.join(", ");
  return turn === 0 ? `Sort these names: ${names}` : `Add these names to the list: ${names}`;
}

/** A sorted list as the model should write it: one name per line inside the tag. */
export function formatList(names: readonly string[]): string {
  return `<${TAG}>\n${names.join("\n")}\n</${TAG}>`;
}

/**
 * A perfect conversation after the first user turn: each turn's sorted list, with the user's
 * follow-ups between them (a row's `referenceCompletion`).
 */
export function referenceConversation(turns: TurnNames): Messages {
  return expectedLists(turns).flatMap((list, turn): Messages => {
    const reply: Messages = [{ role: "assistant", content: formatList(list) }];
    return turn + 1 < turns.length
      ? [...reply, { role: "user", content: userPrompt(turns, turn + 1) }]
      : reply;
  });
}

/** The names of a row, read from its `info`; throws when they are missing or malformed. */
export function turnNamesOf(info: Record<string, unknown>): TurnNames {
  const parsed = TurnNames.safeParse(info.turn_names);
  if (!parsed.success) {
    throw new TypeError(
      `info.turn_names must be a list of turns, each a non-empty list of names: ${parsed.error.issues[0]?.message}`,
    );
  }
  return parsed.data;
}

/**
 * The names per turn of row `row`: the number of turns and of names per turn drawn from the shape,
 * the names drawn without repeats from `names`, all by the row's own seeded stream.
 */
export function drawTurnNames(
  names: readonly string[],
  shape: SortTaskShape,
  seed: number,
  row: number,
): TurnNames {
  const random = seededRandom(seed, row);
  const counts = Array.from({ length: random.int(shape.minTurns, shape.maxTurns) }, () =>
    random.int(shape.minNames, shape.maxNames),
  );
  const drawn = random.shuffle(names);
  let next = 0;
  return counts.map((count) => {
    next += count;
    return drawn.slice(next - count, next);
  });
}

/** The first names shipped in `data/names.txt` (written for this package), one per line. */
export async function loadNames(): Promise<string[]> {
  const text = await readFile(fileURLToPath(new URL("../data/names.txt", import.meta.url)), "utf8");
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
