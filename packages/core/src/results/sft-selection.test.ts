import { describe, expect, it } from "vitest";
import { RolloutRecord } from "../records/rollout-record.ts";
import { describeSftSelection, selectSftConversations } from "./sft-selection.ts";

const row = (exampleId: number, rolloutIndex: number, reward: number, extra: Record<string, unknown> = {}) =>
  RolloutRecord.parse({
    example_id: exampleId,
    rollout_index: rolloutIndex,
    prompt: [{ role: "user", content: `q${exampleId}` }],
    completion: [{ role: "assistant", content: `a${exampleId}.${rolloutIndex}` }],
    reward,
    ...extra,
  });

const replies = (conversations: { content?: unknown }[][]) => conversations.map((c) => c.at(-1)!.content);

describe("selectSftConversations", () => {
  const records = [
    row(1, 0, 0.2),
    row(0, 1, 1),
    row(0, 0, 1),
    row(1, 1, 0.9),
    row(0, 2, 0, { error: { error: "ModelError", message: "HTTP 500" } }),
  ];

  it("keeps every rollout that did not fail, as prompt + completion, in example and rollout order", () => {
    const selection = selectSftConversations(records);
    expect(replies(selection.conversations)).toEqual(["a0.0", "a0.1", "a1.0", "a1.1"]);
    expect(selection.conversations[0]).toEqual([
      { role: "user", content: "q0" },
      { role: "assistant", content: "a0.0" },
    ]);
    expect(describeSftSelection(selection, records.length)).toBe("4 of 5 rollouts kept (dropped: 1 failed)");
  });

  it("keeps rollouts at or above a minimum reward", () => {
    const selection = selectSftConversations(records, { minReward: 0.9 });
    expect(replies(selection.conversations)).toEqual(["a0.0", "a0.1", "a1.1"]);
    expect(selection.dropped).toMatchObject({ failed: 1, belowMinReward: 1 });
  });

  it("keeps the best of each group, the first rollout on a tie", () => {
    const selection = selectSftConversations(records, { bestOfGroup: true });
    expect(replies(selection.conversations)).toEqual(["a0.0", "a1.1"]);
    expect(describeSftSelection(selection, 5)).toBe(
      "2 of 5 rollouts kept (dropped: 1 failed, 2 not the best of their group)",
    );
  });

  it("keeps the environments of a group apart, and multi-turn context whole", () => {
    const turns = [
      { role: "assistant", content: "guess 1" },
      { role: "user", content: "wrong" },
      { role: "assistant", content: "guess 2" },
    ];
    const selection = selectSftConversations(
      [row(0, 0, 1, { info: { env_id: "a" }, completion: turns }), row(0, 0, 0.5, { info: { env_id: "b" } })],
      { bestOfGroup: true },
    );
    expect(selection.conversations).toHaveLength(2);
    expect(selection.conversations[0]).toHaveLength(4);
  });
});
