/**
 * A large push is written to disk as it arrives and checked from there: while a client is half-way
 * through sending a 16 MiB package, what it sent is in the push's temporary file and not in the
 * Hub's memory; the push then completes, its blob is the tarball, and no temporary file is left.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tarballKey } from "../blobs/blob-store.ts";
import { contentHash } from "../package/content-hash.ts";
import { packTarball } from "../package/package-tarball.ts";
import { createTestHub, jsonOf, samplePackage, type TestHub } from "../testing/test-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

// Memory is measured after full collections, so only what is still held counts.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/**
 * Bytes of array buffers still reachable. V8 frees dead buffers on a background thread after a
 * collection, late on a busy machine, so this takes the least of a few collections a moment apart.
 */
async function liveArrayBuffers(): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    least = Math.min(least, process.memoryUsage().arrayBuffers);
  }
  return least;
}

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
const uploadDir = mkdtempSync(join(tmpdir(), "vf-hub-uploads-"));
let hub: TestHub;
let ada: string;
beforeAll(async () => {
  hub = await createTestHub({ uploadDir });
  ada = await hub.addUser("ada");
});
afterAll(async () => {
  await hub.close();
  rmSync(uploadDir, { recursive: true, force: true });
});

/** `bytes` sent in 64 KiB chunks, each a fresh copy (as a socket delivers them), pausing at `holdAt` until `release()`. */
function heldBody(bytes: Uint8Array, holdAt: number) {
  let sent = 0;
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (sent >= holdAt) await held;
        if (sent >= bytes.length) return controller.close();
        const end = Math.min(sent + CHUNK, bytes.length);
        controller.enqueue(Uint8Array.prototype.slice.call(bytes, sent, end));
        sent = end;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, release, sent: () => sent };
}

/** Bytes in the push's temporary .tgz, or -1 before it exists. */
function stagedBytes(): number {
  for (const folder of readdirSync(uploadDir)) {
    try {
      return statSync(join(uploadDir, folder, "package.tgz")).size;
    } catch {
      // that folder has no .tgz yet
    }
  }
  return -1;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a large push", () => {
  it("is on disk, not in memory, while it arrives, and leaves no temporary file", async () => {
    // 15 MiB of random bytes do not compress: the tarball is about 15 MiB too.
    const files = [...samplePackage("big"), { path: "data/weights.bin", data: randomBytes(15 * MiB) }];
    const tgz = packTarball(files);
    expect(tgz.length).toBeGreaterThan(15 * MiB);
    const holdAt = 12 * MiB;
    const body = heldBody(tgz, holdAt);

    // A first push, so the database (WebAssembly memory, counted with array buffers) has grown to its
    // working size before the measure.
    const small = packTarball(samplePackage("small"));
    const warm = await hub.call("POST", "/api/v1/envs/ada/small/versions", { key: ada, body: small });
    expect(warm.status).toBe(201);
    const before = await liveArrayBuffers();
    const answer = hub.app.request("http://hub.test/api/v1/envs/ada/big/versions", {
      method: "POST",
      headers: { authorization: `Bearer ${ada}` },
      body: body.stream,
      duplex: "half",
    } as RequestInit);

    await until(() => body.sent() >= holdAt && stagedBytes() >= holdAt - CHUNK, "12 MiB are on disk");
    const held = (await liveArrayBuffers()) - before;
    // Holding the body would keep 12 MiB of chunks; streaming keeps at most a few.
    expect(held).toBeLessThan(2 * MiB);

    body.release();
    const response = await answer;
    expect(response.status).toBe(201);
    const { data } = await jsonOf(response);
    const sha256 = createHash("sha256").update(tgz).digest("hex");
    expect(data.version).toMatchObject({
      semver: "1.0.0",
      file_count: 4,
      size: tgz.length,
      tarball_sha256: sha256,
    });
    expect(data.version.content_hash).toBe(contentHash(files));
    const stored = await hub.context.blobs.get(tarballKey(sha256));
    expect(Buffer.from(stored!).equals(Buffer.from(tgz))).toBe(true);
    expect(readdirSync(uploadDir)).toEqual([]);
  });
});
