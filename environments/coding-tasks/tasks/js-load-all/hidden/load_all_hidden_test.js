import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { loadAll } from "../src/load-all.js";

test("resolves to every result", async () => {
  const fetchUser = async (id) => {
    await sleep(1);
    return { id };
  };
  const users = await loadAll(["u1", "u2", "u3"], fetchUser);
  assert.deepEqual(users, [{ id: "u1" }, { id: "u2" }, { id: "u3" }]);
});

test("keeps the order of the ids, whichever fetch ends first", async () => {
  const delays = { a: 30, b: 5, c: 15 };
  const results = await loadAll(["a", "b", "c"], async (id) => {
    await sleep(delays[id]);
    return id.toUpperCase();
  });
  assert.deepEqual(results, ["A", "B", "C"]);
});

test("fetches at the same time, not one after another", async () => {
  let running = 0;
  let most = 0;
  await loadAll(["a", "b", "c"], async (id) => {
    running++;
    most = Math.max(most, running);
    await sleep(10);
    running--;
    return id;
  });
  assert.equal(most, 3);
});

test("rejects when a fetch fails", async () => {
  const failing = async (id) => {
    await sleep(1);
    if (id === "bad") throw new Error("not found: bad");
    return id;
  };
  await assert.rejects(loadAll(["ok", "bad"], failing), /not found: bad/);
});

test("no ids, no results", async () => {
  assert.deepEqual(await loadAll([], async (id) => id), []);
});
