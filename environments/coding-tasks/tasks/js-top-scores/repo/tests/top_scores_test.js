import assert from "node:assert/strict";
import { test } from "node:test";
import { topScores } from "../src/top-scores.js";

test("ranks the highest first", () => {
  assert.deepEqual(topScores([3, 7, 1, 5]), [7, 5, 3]);
});

test("leaves the scores as they were", () => {
  const scores = [3, 7, 1];
  topScores(scores);
  assert.deepEqual(scores, [3, 7, 1]);
});
