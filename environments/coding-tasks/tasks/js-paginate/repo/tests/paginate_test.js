import assert from "node:assert/strict";
import { test } from "node:test";
import { paginate } from "../src/paginate.js";

test("counts the pages, rounding up", () => {
  const items = Array.from({ length: 25 }, (_, i) => i);
  assert.equal(paginate(items, 1, 10).totalPages, 3);
  assert.equal(paginate(items, 1, 5).totalPages, 5);
});

test("an empty list has one empty page", () => {
  assert.deepEqual(paginate([], 1), { items: [], page: 1, totalPages: 1 });
});

test("refuses page 0", () => {
  assert.throws(() => paginate([1, 2, 3], 0), RangeError);
});
