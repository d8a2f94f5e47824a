/**
 * The scale path end to end: a Hub on a PostgreSQL server (started by the test, Debian's postgresql)
 * with its blobs in an S3-protocol store (s3rver), pushed to and installed from; and the bootstrap of
 * the first user, once.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HubClient } from "../client/hub-client.ts";
import { pullEnvironment } from "../client/pull-environment.ts";
import { pushReport } from "../client/push-report.ts";
import { type PostgresServer, startPostgresServer } from "../testing/postgres-server.ts";
import { writeSampleRun } from "../testing/sample-run.ts";
import { sampleTarball } from "../testing/test-hub.ts";
import { createHubUser } from "./create-user.ts";
import { startHub } from "./start-hub.ts";

const root = mkdtempSync(join(tmpdir(), "vf-scale-"));
const s3 = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory: join(root, "s3"),
  configureBuckets: [{ name: "hub" }],
});
let postgres: PostgresServer;
let blobUrl = "";
beforeAll(async () => {
  postgres = await startPostgresServer();
  const { port } = await s3.run();
  blobUrl = `s3://hub/tarballs?endpoint=http://127.0.0.1:${port}&access_key_id=S3RVER&secret_access_key=S3RVER`;
}, 60_000);
afterAll(async () => {
  await s3.close();
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

it("keeps a second process (or Hub) off an embedded database that is in use", async () => {
  const hub = await startHub({ dataDir: join(root, "embedded"), port: 0 });
  await expect(createHubUser({ dataDir: join(root, "embedded"), name: "grace" })).rejects.toMatchObject({
    code: "conflict",
    message: expect.stringMatching(/already open in this process/),
  });
  await hub.close();
  const created = await createHubUser({ dataDir: join(root, "embedded"), name: "grace" });
  expect(created.user).toBe("grace");
});

it("runs on PostgreSQL and S3: push, then pull the same files back; the admin is bootstrapped once", async () => {
  const first = await startHub({ dataDir: join(root, "a"), port: 0, databaseUrl: postgres.url, blobUrl });
  expect(first.bootstrap?.user).toBe("admin");
  const client = new HubClient({ url: first.url, apiKey: first.bootstrap!.apiKey });
  const pushed = await client.pushTarball("admin", "scale", sampleTarball("scale", "2.0.0"));
  expect(pushed.status).toBe("created");
  const run = writeSampleRun({
    dir: join(root, "run"),
    envId: "admin/scale",
    model: "m",
    runId: "r1",
    rewards: [1, 0.5, 0.25],
  });
  const report = await pushReport({
    client,
    runDir: run,
    contentHash: pushed.version.content_hash,
    chunkRows: 2,
  });
  expect(report.report).toMatchObject({ status: "complete", rows_received: 3 });
  expect((await client.reportRows(report.report.id)).items[2]!.row).toMatchObject({ reward: 0.25 });
  await first.close();

  const second = await startHub({ dataDir: join(root, "b"), port: 0, databaseUrl: postgres.url, blobUrl });
  expect(second.bootstrap).toBeNull();
  const again = new HubClient({ url: second.url, apiKey: first.bootstrap!.apiKey });
  const { dir, version } = await pullEnvironment({ client: again, spec: "admin/scale@2.0.0", cwd: root });
  expect(version.content_hash).toBe(pushed.version.content_hash);
  expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# scale\n\nA sample environment.\n");
  await second.close();

  const created = await createHubUser({ dataDir: join(root, "b"), databaseUrl: postgres.url, name: "grace" });
  expect(created.apiKey).toMatch(/^vf_/);
  const third = await startHub({ dataDir: join(root, "c"), port: 0, databaseUrl: postgres.url, blobUrl });
  expect((await new HubClient({ url: third.url, apiKey: created.apiKey }).whoami()).user.name).toBe("grace");
  await third.close();
}, 60_000);

it("serves hot reads from its cache for cacheTtlSeconds, so another Hub's push shows there only then (0: at once)", async () => {
  const writer = await startHub({ dataDir: join(root, "w"), port: 0, databaseUrl: postgres.url, blobUrl });
  const cached = await startHub({
    dataDir: join(root, "r1"),
    port: 0,
    databaseUrl: postgres.url,
    blobUrl,
    cacheTtlSeconds: 600,
  });
  const uncached = await startHub({
    dataDir: join(root, "r0"),
    port: 0,
    databaseUrl: postgres.url,
    blobUrl,
    cacheTtlSeconds: 0,
  });
  try {
    const key = (await createHubUser({ dataDir: join(root, "w"), databaseUrl: postgres.url, name: "ttl" }))
      .apiKey;
    const client = (hub: { url: string }) => new HubClient({ url: hub.url, apiKey: key });
    await client(writer).pushTarball("ttl", "cached", sampleTarball("cached", "1.0.0"));
    expect((await client(cached).envInfo("ttl", "cached")).latest_version).toBe("1.0.0");
    expect((await client(uncached).envInfo("ttl", "cached")).latest_version).toBe("1.0.0");
    await client(writer).pushTarball("ttl", "cached", sampleTarball("cached", "1.1.0"));
    expect((await client(uncached).envInfo("ttl", "cached")).latest_version).toBe("1.1.0");
    expect((await client(cached).envInfo("ttl", "cached")).latest_version).toBe("1.0.0");
  } finally {
    await Promise.all([writer.close(), cached.close(), uncached.close()]);
  }
}, 60_000);
