import assert from "node:assert/strict";
import { test } from "node:test";
import { truncate } from "../src/truncate.js";

test("short text is left as it is", () => {
  assert.equal(truncate("Hello", 10), "Hello");
  assert.equal(truncate("Hello", 5), "Hello");
});

test("long text ends in an ellipsis", () => {
  assert.equal(truncate("Hello world", 8), "Hello w…");
});
