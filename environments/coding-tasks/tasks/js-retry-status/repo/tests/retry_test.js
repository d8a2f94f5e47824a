import assert from "node:assert/strict";
import { test } from "node:test";
import { requestWithRetry } from "../src/retry.js";

/** A `send` that answers with these statuses in turn, and counts its calls. */
function replies(...statuses) {
  const send = async () => ({ status: statuses[Math.min(send.calls++, statuses.length - 1)] });
  send.calls = 0;
  return send;
}

test("a success is returned at once", async () => {
  const send = replies(200);
  assert.equal((await requestWithRetry(send)).status, 200);
  assert.equal(send.calls, 1);
});

test("a redirect is not retried", async () => {
  const send = replies(302, 200);
  assert.equal((await requestWithRetry(send)).status, 302);
  assert.equal(send.calls, 1);
});
