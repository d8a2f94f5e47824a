import assert from "node:assert/strict";
import { test } from "node:test";
import { truncate } from "../src/truncate.js";

test("an empty ellipsis cuts to exactly maxLength", () => {
  assert.equal(truncate("Hello world", 5, { ellipsis: "" }), "Hello");
  assert.equal(truncate("A long product description", 6, { ellipsis: "" }), "A long");
});

test("an empty ellipsis leaves short text alone", () => {
  assert.equal(truncate("Hi", 5, { ellipsis: "" }), "Hi");
});

test("the ellipsis defaults to …", () => {
  assert.equal(truncate("Hello world", 8), "Hello w…");
  assert.equal(truncate("Hello world", 8, {}), "Hello w…");
});

test("a custom ellipsis counts towards maxLength", () => {
  assert.equal(truncate("Hello world", 8, { ellipsis: "..." }), "Hello...");
});

test("short text is left as it is", () => {
  assert.equal(truncate("Hello", 5), "Hello");
});
