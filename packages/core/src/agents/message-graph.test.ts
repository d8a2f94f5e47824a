import { describe, expect, it } from "vitest";
import { MessageGraph } from "./message-graph.ts";

const user = (content: string) => ({ role: "user" as const, content });
const assistant = (content: string) => ({ role: "assistant" as const, content });

describe("the message graph of a rollout", () => {
  it("keeps a multi-turn conversation on one branch whose tokens are the last turn's prompt and completion", () => {
    const graph = new MessageGraph();
    const first = graph.commitTurn({
      prompt: [user("q1")],
      completion: assistant("a1"),
      tokens: { promptIds: [1, 2], completionIds: [3], completionLogprobs: [-0.5] },
      timestamp: 1,
    });
    const second = graph.commitTurn({
      prompt: [user("q1"), assistant("a1"), user("q2")],
      completion: assistant("a2"),
      tokens: { promptIds: [1, 2, 3, 4, 5], completionIds: [6, 7], completionLogprobs: [-1, -2] },
      timestamp: 2,
    });
    expect([first, second]).toEqual([1, 3]);
    expect(graph.nodes.map((n) => n.parent)).toEqual([null, 0, 1, 2]);
    expect(graph.nodes.flatMap((n) => n.token_ids)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(graph.nodes.flatMap((n) => n.mask)).toEqual([false, false, true, false, false, true, true]);
    expect(graph.nodes[3]!.logprobs).toEqual([-1, -2]);
  });

  it("starts a new branch when a turn's prompt tokens do not extend the stored ones", () => {
    const graph = new MessageGraph();
    graph.commitTurn({
      prompt: [user("q1")],
      completion: assistant("a1"),
      tokens: { promptIds: [1, 2], completionIds: [3], completionLogprobs: [0] },
      timestamp: 1,
    });
    // The template re-rendered the first answer differently (e.g. stripped reasoning): 9 instead of 3.
    graph.commitTurn({
      prompt: [user("q1"), assistant("a1"), user("q2")],
      completion: assistant("a2"),
      tokens: { promptIds: [1, 2, 9, 4], completionIds: [5], completionLogprobs: [0] },
      timestamp: 2,
    });
    const leaf = graph.nodes.length - 1;
    const path: number[] = [];
    for (let id: number | null = leaf; id !== null; id = graph.nodes[id]!.parent) path.unshift(id);
    expect(path.flatMap((id) => graph.nodes[id]!.token_ids)).toEqual([1, 2, 9, 4, 5]);
    expect(graph.nodes.filter((n) => n.sampled)).toHaveLength(2);
  });
});
