import assert from "node:assert/strict";
import { test } from "node:test";
import { topScores } from "../src/top-scores.js";

test("ranks scores of different lengths as numbers", () => {
  assert.deepEqual(topScores([9, 100, 25]), [100, 25, 9]);
});

test("takes the n highest", () => {
  assert.deepEqual(topScores([40, 1000, 7, 250, 12], 2), [1000, 250]);
});

test("ranks negative scores below zero", () => {
  assert.deepEqual(topScores([-5, 0, -20, 3], 4), [3, 0, -5, -20]);
});

test("single-digit scores still rank", () => {
  assert.deepEqual(topScores([3, 7, 1, 5]), [7, 5, 3]);
});

test("leaves the scores as they were", () => {
  const scores = [9, 100, 25];
  topScores(scores);
  assert.deepEqual(scores, [9, 100, 25]);
});
