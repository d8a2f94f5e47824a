import { describe, expect, it } from "vitest";
import { packTrainingBatch, splitItems } from "./pack-batch.ts";
import type { BatchItem } from "./protocol.ts";

describe("packing a training batch", () => {
  it("runs every token but the last and predicts each trained token from the row before it", () => {
    const items: BatchItem[] = [
      { tokens: [10, 11, 12, 13], mask: [0, 0, 1, 1] },
      { tokens: [20], mask: [0] }, // nothing to predict: no rows
      { tokens: [30, 31], mask: [0, 1] },
    ];
    const { packed, targets, rowItem, rowPosition } = packTrainingBatch(items);
    expect(Array.from(packed.tokens)).toEqual([10, 11, 12, 30]);
    expect(Array.from(packed.positions)).toEqual([0, 1, 2, 0]);
    expect(Array.from(packed.seqStarts)).toEqual([0, 3]);
    expect(Array.from(packed.outputRows)).toEqual([1, 2, 3]);
    expect(Array.from(targets.tokens)).toEqual([12, 13, 31]);
    expect(Array.from(rowItem)).toEqual([0, 0, 2]);
    expect(Array.from(rowPosition)).toEqual([2, 3, 1]);
  });

  it("splits items into shards of about equal tokens, the same way every time", () => {
    const items = [8, 1, 1, 1, 1, 4].map((n) => ({
      tokens: new Array(n).fill(1),
      mask: new Array(n).fill(0),
    }));
    expect(splitItems(items, 2)).toEqual([0, 1, 6]);
    expect(splitItems(items, 1)).toEqual([0, 6]);
    expect(splitItems(items.slice(0, 1), 2)).toEqual([0, 1, 1]); // one item: the second shard is empty
  });
});
