// Migration 4 gives environments a kind: a Hub that held tasksets before it knew kinds reads each
// one's kind from its newest version's package.json, so its tasksets are badged from the first start.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "./database.ts";
import { migrate } from "./migrate.ts";
import { MIGRATIONS } from "./migrations.ts";
import { openPgliteDatabase } from "./pglite-database.ts";

// Opening an in-memory database takes seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000 });

let db: Database;
beforeAll(async () => {
  db = await openPgliteDatabase();
});
afterAll(() => db?.close());

/** Adds environment `name` with versions whose package.json `vf` fields are `vfs`, oldest first. */
async function addEnvironment(name: string, vfs: Record<string, unknown>[]): Promise<void> {
  const [env] = await db.query<{ id: number }>(
    "insert into environments (owner, name, visibility) values ('ada', $1, 'public') returning id",
    [name],
  );
  for (const [i, vf] of vfs.entries()) {
    await db.query(
      `insert into versions (env_id, semver, content_hash, tarball_sha256, tarball_sha512, tarball_sha1,
         tarball_size, file_count, manifest)
       values ($1, $2, $3, 'x', 'x', 'x', 1, 1, $4)`,
      [env!.id, `0.${i}.0`, `${name}-${i}`, JSON.stringify({ name, version: `0.${i}.0`, vf })],
    );
  }
}

describe("migration 4: environment kinds", () => {
  it("marks as tasksets the environments whose newest version is one, and the rest environments", async () => {
    expect(await migrate(db, MIGRATIONS.slice(0, 3))).toEqual([1, 2, 3]);
    await addEnvironment("bugs", [{ id: "bugs", kind: "taskset" }]);
    await addEnvironment("echo", [{ id: "echo" }]);
    await addEnvironment("became-taskset", [{ id: "b" }, { id: "b", kind: "taskset" }]);
    await addEnvironment("was-taskset", [
      { id: "w", kind: "taskset" },
      { id: "w", kind: "environment" },
    ]);
    await addEnvironment("never-pushed", []);

    expect(await migrate(db)).toEqual([4]);
    const rows = await db.query<{ name: string; kind: string }>(
      "select name, kind from environments order by name",
    );
    expect(Object.fromEntries(rows.map((r) => [r.name, r.kind]))).toEqual({
      bugs: "taskset",
      "became-taskset": "taskset",
      echo: "environment",
      "never-pushed": "environment",
      "was-taskset": "environment",
    });
    await expect(db.query("update environments set kind = 'agent' where name = 'echo'")).rejects.toThrow();
  });
});
