import assert from "node:assert/strict";
import { test } from "node:test";
import { isRetryable, requestWithRetry } from "../src/retry.js";

function replies(...statuses) {
  const send = async () => ({ status: statuses[Math.min(send.calls++, statuses.length - 1)] });
  send.calls = 0;
  return send;
}

test("server errors and 429 are retryable", () => {
  for (const status of [500, 502, 503, 504, 429]) assert.equal(isRetryable(status), true, String(status));
});

test("other client errors are not", () => {
  for (const status of [400, 401, 403, 404, 422]) assert.equal(isRetryable(status), false, String(status));
});

test("a 503 is retried until it succeeds", async () => {
  const send = replies(503, 503, 200);
  assert.equal((await requestWithRetry(send)).status, 200);
  assert.equal(send.calls, 3);
});

test("a 404 is sent once", async () => {
  const send = replies(404, 200);
  assert.equal((await requestWithRetry(send)).status, 404);
  assert.equal(send.calls, 1);
});

test("retries stop after the given attempts", async () => {
  const send = replies(500);
  assert.equal((await requestWithRetry(send, { attempts: 4 })).status, 500);
  assert.equal(send.calls, 4);
});

test("a success is returned at once", async () => {
  const send = replies(200);
  assert.equal((await requestWithRetry(send)).status, 200);
  assert.equal(send.calls, 1);
});
