import { describe, expect, it } from "vitest";
import {
  drawTurnNames,
  expectedLists,
  formatList,
  loadNames,
  referenceConversation,
  sortNames,
  turnNamesOf,
  userPrompt,
} from "./sort-task.ts";

const turns = [["Maya", "ben"], ["Zoe"], ["Adam", "Olivia"]];

describe("a sort task", () => {
  it("expects every name so far after each turn, sorted ignoring case", () => {
    expect(sortNames(["maya", "Ben", "Ada", "anna"])).toEqual(["Ada", "anna", "Ben", "maya"]);
    expect(expectedLists(turns)).toEqual([
      ["ben", "Maya"],
      ["ben", "Maya", "Zoe"],
      ["Adam", "ben", "Maya", "Olivia", "Zoe"],
    ]);
  });

  it("has the user give the first names, then the names to add", () => {
    expect(userPrompt(turns, 0)).toBe("Sort these names: Maya, ben");
    expect(userPrompt(turns, 2)).toBe("Add these names to the list: Adam, Olivia");
    expect(formatList(["Ada", "Ben"])).toBe("<alphabetical_sorted>\nAda\nBen\n</alphabetical_sorted>");
  });

  it("has a reference conversation of every right reply, with the user's follow-ups between", () => {
    expect(referenceConversation([["Maya", "ben"], ["Zoe"]])).toEqual([
      { role: "assistant", content: "<alphabetical_sorted>\nben\nMaya\n</alphabetical_sorted>" },
      { role: "user", content: "Add these names to the list: Zoe" },
      { role: "assistant", content: "<alphabetical_sorted>\nben\nMaya\nZoe\n</alphabetical_sorted>" },
    ]);
  });

  it("reads the names from a row's info, or says what is wrong with them", () => {
    expect(turnNamesOf({ turn_names: turns })).toEqual(turns);
    expect(() => turnNamesOf({})).toThrow(/info.turn_names must be a list of turns/);
    expect(() => turnNamesOf({ turn_names: [["Ada"], []] })).toThrow(/info.turn_names/);
  });
});

describe("drawing a row's names", () => {
  it("draws the turn count and names per turn from the shape, without repeating a name", async () => {
    const names = await loadNames();
    const shape = { minTurns: 3, maxTurns: 5, minNames: 1, maxNames: 3 };
    const turnCounts = new Set<number>();
    for (let row = 0; row < 300; row++) {
      const drawn = drawTurnNames(names, shape, 0, row);
      turnCounts.add(drawn.length);
      for (const turn of drawn) expect(turn.length).toBeGreaterThanOrEqual(1);
      for (const turn of drawn) expect(turn.length).toBeLessThanOrEqual(3);
      const all = drawn.flat();
      expect(new Set(all).size).toBe(all.length);
      for (const name of all) expect(names).toContain(name);
    }
    expect([...turnCounts].sort()).toEqual([3, 4, 5]);
    expect(drawTurnNames(names, shape, 0, 7)).toEqual(drawTurnNames(names, shape, 0, 7));
  });

  it("ships a few hundred distinct capitalised first names", async () => {
    const names = await loadNames();
    expect(names.length).toBeGreaterThan(250);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][a-z]+$/);
  });
});
