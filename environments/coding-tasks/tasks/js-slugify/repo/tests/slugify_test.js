import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "../src/slugify.js";

test("joins words with dashes", () => {
  assert.equal(slugify("Release Notes 2024"), "release-notes-2024");
});

test("drops accents", () => {
  assert.equal(slugify("Crème brûlée"), "creme-brulee");
});
