import type { Messages } from "@vf-rl/core";
import { lcsRatio } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { exactTurns, listSimilarities, sortReward, turnScore } from "./sort-reward.ts";
import { formatList } from "./sort-task.ts";

const expected = [
  ["Ben", "Maya"],
  ["Ben", "Maya", "Zoe"],
  ["Adam", "Ben", "Maya", "Zoe"],
];
const perTurn = { similarityPower: 4, powerPerTurn: true };
const conversation = (...replies: string[]): Messages =>
  replies.flatMap(
    (content, i): Messages => [
      ...(i > 0 ? [{ role: "user" as const, content: "Add these names to the list: ..." }] : []),
      { role: "assistant", content },
    ],
  );

describe("sortReward", () => {
  it("is 1 for every turn sorted right, and 0 for no tagged list at all", () => {
    expect(sortReward(conversation(...expected.map(formatList)), expected, perTurn)).toBe(1);
    expect(
      sortReward(conversation("Ben, Maya", "Ben, Maya, Zoe", "Adam, Ben, Maya, Zoe"), expected, perTurn),
    ).toBe(0);
    expect(sortReward([], expected, perTurn)).toBe(0);
  });

  it("averages over every expected turn, so unanswered turns count 0", () => {
    expect(sortReward(conversation(formatList(expected[0]!)), expected, perTurn)).toBeCloseTo(1 / 3);
  });

  it("raises each turn's similarity to the power, or the average once without powerPerTurn", () => {
    const wrongOrder = formatList(["Maya", "Ben"]);
    const similarity = lcsRatio("maya\nben", "ben\nmaya");
    const replies = conversation(wrongOrder, formatList(expected[1]!), formatList(expected[2]!));
    expect(sortReward(replies, expected, perTurn)).toBeCloseTo((similarity ** 4 + 2) / 3);
    expect(sortReward(replies, expected, { similarityPower: 4, powerPerTurn: false })).toBeCloseTo(
      ((similarity + 2) / 3) ** 4,
    );
    expect(sortReward(replies, expected, { similarityPower: 1, powerPerTurn: true })).toBeCloseTo(
      (similarity + 2) / 3,
    );
  });

  it("ignores case, surrounding spaces and blank lines inside the list", () => {
    const loose = "<alphabetical_sorted>\n  ben \n\nMAYA\n</alphabetical_sorted>";
    expect(turnScore(loose, expected[0]!, perTurn)).toBe(1);
  });
});

describe("turnScore with several lists in one reply", () => {
  it("counts the last list when each improved on the one before", () => {
    const reply = `${formatList(["Maya", "Ben"])}\nOops:\n${formatList(["Ben", "Maya"])}`;
    expect(turnScore(reply, expected[0]!, perTurn)).toBe(1);
  });

  it("gives 0 when a later list is no better", () => {
    const reply = `${formatList(["Ben", "Maya"])}\n${formatList(["Maya", "Ben"])}`;
    expect(turnScore(reply, expected[0]!, perTurn)).toBe(0);
    expect(
      turnScore(`${formatList(["Ben", "Maya"])}${formatList(["Ben", "Maya"])}`, expected[0]!, perTurn),
    ).toBe(0);
  });

  it("scores an empty list 0", () => {
    expect(listSimilarities("<alphabetical_sorted>\n</alphabetical_sorted>", expected[0]!)).toEqual([0]);
  });
});

describe("exactTurns", () => {
  it("is the share of turns answered with exactly the right list", () => {
    const replies = conversation(formatList(expected[0]!), formatList(["Zoe", "Ben", "Maya"]));
    expect(exactTurns(replies, expected)).toBeCloseTo(1 / 3);
    expect(exactTurns(conversation(...expected.map(formatList)), expected)).toBe(1);
  });
});
