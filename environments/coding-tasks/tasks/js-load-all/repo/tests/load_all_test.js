import assert from "node:assert/strict";
import { test } from "node:test";
import { loadAll } from "../src/load-all.js";

test("fetches each id once", async () => {
  const asked = [];
  await loadAll(["a", "b", "c"], async (id) => {
    asked.push(id);
    return id;
  });
  assert.deepEqual(asked.sort(), ["a", "b", "c"]);
});

test("no ids, no results", async () => {
  assert.deepEqual(await loadAll([], async (id) => id), []);
});
