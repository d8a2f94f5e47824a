import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "../src/slugify.js";

test("no dash at the end", () => {
  assert.equal(slugify("Hello, World!"), "hello-world");
  assert.equal(slugify("What's new?"), "what-s-new");
});

test("no dash at the start", () => {
  assert.equal(slugify("  -- Draft notes"), "draft-notes");
  assert.equal(slugify("(Updated) Pricing"), "updated-pricing");
});

test("a title of only punctuation is an empty slug", () => {
  assert.equal(slugify("!!!"), "");
});

test("runs of separators inside are one dash", () => {
  assert.equal(slugify("Tips & tricks -- part 2"), "tips-tricks-part-2");
});

test("drops accents", () => {
  assert.equal(slugify("Crème brûlée"), "creme-brulee");
});
