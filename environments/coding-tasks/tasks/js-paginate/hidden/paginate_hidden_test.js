import assert from "node:assert/strict";
import { test } from "node:test";
import { paginate } from "../src/paginate.js";

const products = Array.from({ length: 25 }, (_, i) => `product ${i + 1}`);

test("page 1 holds the first items", () => {
  assert.deepEqual(paginate(["a", "b", "c"], 1, 2).items, ["a", "b"]);
  assert.deepEqual(paginate(products, 1, 10).items, products.slice(0, 10));
});

test("a middle page follows the one before", () => {
  assert.deepEqual(paginate(products, 2, 10).items, products.slice(10, 20));
});

test("the last page holds the rest", () => {
  assert.deepEqual(paginate(products, 3, 10), { items: products.slice(20), page: 3, totalPages: 3 });
});

test("a page past the end is empty", () => {
  assert.deepEqual(paginate(products, 4, 10).items, []);
});

test("the page size defaults to 10", () => {
  assert.deepEqual(paginate(products, 1).items, products.slice(0, 10));
});

test("refuses a page below 1 or a page size of 0", () => {
  assert.throws(() => paginate(products, 0), RangeError);
  assert.throws(() => paginate(products, 1, 0), RangeError);
});
