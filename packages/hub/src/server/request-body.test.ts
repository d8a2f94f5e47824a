/**
 * Bodies under hostile input: who may call is checked before a byte of the body is read, and every
 * body is capped by its route, refused with 413 as soon as it passes the cap (declared or counted).
 * Bodies here are generated on demand and count what the Hub pulled from them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BODY_LIMITS } from "../api/body-limits.ts";
import { COUNTED_CHUNK, type CountedBody, countedBody } from "../testing/counted-body.ts";
import { createTestHub, jsonOf, sampleTarball, type TestHub } from "../testing/test-hub.ts";
import { startHub } from "./start-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

const MB = 1024 * 1024;
let hub: TestHub;
let ada: string;
let adaRead: string;
let bob: string;
let reportId: number;
beforeAll(async () => {
  hub = await createTestHub({ limits: { maxTarballBytes: 1 * MB } });
  ada = await hub.addUser("ada");
  adaRead = await hub.addUser("ada-reader", "read");
  bob = await hub.addUser("bob");
  const pushed = await jsonOf(
    await hub.call("POST", "/api/v1/envs/ada/echo/versions", { key: ada, body: sampleTarball("echo") }),
  );
  const report = await jsonOf(
    await hub.call("POST", "/api/v1/reports", {
      key: ada,
      json: {
        run_id: "r1",
        env: "ada/echo",
        content_hash: pushed.data.version.content_hash,
        model: "m",
        metadata: {},
        row_count: 10,
      },
    }),
  );
  reportId = report.data.id;
});
afterAll(() => hub.close());

/** Sends `body` (streamed, so with no Content-Length unless `headers` declares one). */
function send(method: string, path: string, body: CountedBody, headers: Record<string, string> = {}) {
  return hub.app.request(`http://hub.test${path}`, {
    method,
    headers,
    body: body.stream,
    duplex: "half",
  } as RequestInit);
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("request bodies", () => {
  it("answers an anonymous 60 MB PUT of report rows 401 without reading its body", async () => {
    const body = countedBody(60 * MB);
    const response = await send("PUT", `/api/v1/reports/${reportId}/rows`, body, {
      "content-type": "application/json",
    });
    expect(response.status).toBe(401);
    expect((await jsonOf(response)).error.code).toBe("unauthorized");
    expect(body.pulled).toBeLessThanOrEqual(COUNTED_CHUNK);
  });

  it("answers an anonymous, read-only or other user's push 401/403 without reading the tarball", async () => {
    const anonymous = countedBody(60 * MB);
    expect((await send("POST", "/api/v1/envs/ada/big/versions", anonymous)).status).toBe(401);
    const readOnly = countedBody(60 * MB);
    expect((await send("POST", "/api/v1/envs/ada/big/versions", readOnly, bearer(adaRead))).status).toBe(403);
    const otherUser = countedBody(60 * MB);
    expect((await send("POST", "/api/v1/envs/ada/big/versions", otherUser, bearer(bob))).status).toBe(403);
    expect(anonymous.pulled + readOnly.pulled + otherUser.pulled).toBeLessThanOrEqual(3 * COUNTED_CHUNK);
  });

  it("refuses a 300 MB sign-in form with 413, reading no more than the form cap", async () => {
    const body = countedBody(300 * MB);
    const response = await send("POST", "/login", body, {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(413);
    expect(body.pulled).toBeLessThanOrEqual(BODY_LIMITS.form + COUNTED_CHUNK);
  });

  it("refuses a declared Content-Length over the cap before reading anything", async () => {
    const body = countedBody(2 * MB);
    const response = await send("POST", "/api/v1/me/keys", body, {
      ...bearer(ada),
      "content-type": "application/json",
      "content-length": String(2 * MB),
    });
    expect(response.status).toBe(413);
    const { error } = await jsonOf(response);
    expect(error).toMatchObject({ code: "payload_too_large", details: { max_bytes: BODY_LIMITS.json } });
    expect(error.message).toMatch(/over the limit of 65536 bytes/);
    expect(body.pulled).toBeLessThanOrEqual(COUNTED_CHUNK);
  });

  it("caps each route by its kind: JSON metadata, report rows, tarballs", async () => {
    const cases: [string, string, number][] = [
      ["POST", "/api/v1/me/keys", BODY_LIMITS.json],
      ["POST", "/api/v1/reports", BODY_LIMITS.reportOpen],
      ["PUT", `/api/v1/reports/${reportId}/rows`, BODY_LIMITS.reportRows],
      ["POST", "/api/v1/envs/ada/big/versions", 1 * MB],
    ];
    for (const [method, path, cap] of cases) {
      const body = countedBody(cap + 4 * MB);
      const response = await send(method, path, body, bearer(ada));
      expect([path, response.status]).toEqual([path, 413]);
      expect((await jsonOf(response)).error.code).toBe("payload_too_large");
      // Reading stopped at the cap: no more than one chunk past it.
      expect(body.pulled).toBeGreaterThan(cap);
      expect(body.pulled).toBeLessThanOrEqual(cap + COUNTED_CHUNK);
    }
  });

  it("still signs in with a small form", async () => {
    const response = await hub.app.request("http://hub.test/login", {
      method: "POST",
      body: new URLSearchParams({ name: "ada", password: "pw-ada", next: "/account" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/account");
  });

  it("answers 413 on a real socket when a sign-in declares 300 MB, without waiting for the bytes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vf-hub-body-"));
    const running = await startHub({ dataDir, port: 0 });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${running.url}/login`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(300 * MB),
          },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on("error", reject);
        // Only the first bytes are ever sent: the answer must come from the declared length.
        req.write("name=ada&password=");
      });
      expect(status).toBe(413);
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
