/**
 * A refused push stores nothing: whatever the reason (a manifest nested 100,000 levels deep, a bad
 * tarball, a name or hash mismatch, a taken version, someone else's namespace), the answer is a 4xx
 * with a message, and neither the tarball's blob nor a version or environment row is left behind.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tarballKey } from "../blobs/blob-store.ts";
import { packTarball } from "../package/package-tarball.ts";
import { createTestHub, jsonOf, samplePackage, sampleTarball, type TestHub } from "../testing/test-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

let hub: TestHub;
let ada: string;
let bob: string;
beforeAll(async () => {
  hub = await createTestHub();
  ada = await hub.addUser("ada");
  bob = await hub.addUser("bob");
  expect((await push(ada, "kept", sampleTarball("kept"))).status).toBe(201);
});
afterAll(() => hub.close());

function push(key: string, name: string, body: Uint8Array, headers: Record<string, string> = {}) {
  return hub.call("POST", `/api/v1/envs/ada/${name}/versions`, { key, body, headers });
}

/** A package whose package.json is `text`, with the sample's other files. */
const withManifest = (name: string, text: string) =>
  packTarball([
    { path: "package.json", data: Buffer.from(text) },
    ...samplePackage(name).filter((f) => f.path !== "package.json"),
  ]);

const manifest = (name: string, extra = "") =>
  `{"name":"${name}","version":"1.0.0","vf":{"id":"${name}"}${extra}}`;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function counts() {
  const [row] = await hub.context.db.query<{ envs: number; versions: number }>(
    "select (select count(*)::int from environments) as envs, (select count(*)::int from versions) as versions",
  );
  return row!;
}

describe("refused pushes", () => {
  it("answers 422 for a package.json nested 100,000 levels deep, and stores nothing", async () => {
    const depth = 100_000;
    const body = withManifest("deep", manifest("deep", `,"x":${"[".repeat(depth)}${"]".repeat(depth)}`));
    const before = await counts();
    const response = await push(ada, "deep", body);
    expect(response.status).toBe(422);
    const { error } = await jsonOf(response);
    expect(error).toMatchObject({ code: "validation_failed", details: { field: "package.json" } });
    expect(error.message).toMatch(/package\.json nests deeper than 64 levels/);
    expect(await hub.context.blobs.has(tarballKey(sha256(body)))).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it("leaves no blob and no row behind for any other refusal", async () => {
    const cases: [string, string, Uint8Array, Record<string, string>, number, string][] = [
      ["invalid JSON", "broken", withManifest("broken", "{"), {}, 422, "validation_failed"],
      ["name mismatch", "other", sampleTarball("mismatch"), {}, 422, "validation_failed"],
      [
        "scope mismatch",
        "scoped",
        withManifest("scoped", manifest("@bob/scoped")),
        {},
        422,
        "validation_failed",
      ],
      [
        "hash mismatch",
        "hashed",
        sampleTarball("hashed"),
        { "x-vf-content-hash": "0".repeat(64) },
        422,
        "hash_mismatch",
      ],
      ["not gzip", "junk", new Uint8Array(2048).fill(7), {}, 422, "invalid_package"],
      [
        "taken version",
        "kept",
        sampleTarball("kept", "1.0.0", { "new.txt": "changed" }),
        {},
        409,
        "version_exists",
      ],
    ];
    for (const [why, name, body, headers, status, code] of cases) {
      const before = await counts();
      const response = await push(ada, name, body, headers);
      expect([why, response.status]).toEqual([why, status]);
      expect([why, (await jsonOf(response)).error.code]).toEqual([why, code]);
      expect([why, await hub.context.blobs.has(tarballKey(sha256(body)))]).toEqual([why, false]);
      expect([why, await counts()]).toEqual([why, before]);
    }
    const foreign = sampleTarball("mine");
    expect((await push(bob, "mine", foreign)).status).toBe(403);
    expect(await hub.context.blobs.has(tarballKey(sha256(foreign)))).toBe(false);
    // The version that was there keeps its tarball.
    expect(await hub.context.blobs.has(tarballKey(sha256(sampleTarball("kept"))))).toBe(true);
  });
});
