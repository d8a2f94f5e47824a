/**
 * The contract every `Database` implementation passes, with the Hub's stores on top of it: run by
 * pglite-database.test.ts and postgres-database.test.ts. No test is skipped for either.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findKeyOwner, insertApiKey, revokeApiKey } from "../store/api-keys-store.ts";
import {
  lockOrCreateEnvironment,
  searchEnvironments,
  updateEnvironment,
} from "../store/environments-store.ts";
import { countUsers, insertUser } from "../store/users-store.ts";
import {
  findVersionByHash,
  insertVersion,
  latestOf,
  listVersions,
  type NewVersion,
} from "../store/versions-store.ts";
import type { Database } from "./database.ts";
import { migrate } from "./migrate.ts";

const version = (envId: number, hash: string, label: string, pushedBy: number): NewVersion => ({
  envId,
  semver: label,
  contentHash: hash,
  tarballSha256: `t${hash}`,
  tarballSha512: "sha512-x",
  tarballSha1: "s",
  tarballSize: 10,
  fileCount: 1,
  manifest: { name: "x", version: label },
  readme: "",
  pushedBy,
});

/** Registers the contract tests for the database `open` returns (one database for the whole file). */
export function describeDatabaseContract(name: string, open: () => Promise<Database>): void {
  describe(`Database contract: ${name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
    });

    it("migrates once, in order, and records what it ran", async () => {
      expect(await migrate(db)).toEqual([1, 2, 3, 4]);
      expect(await migrate(db)).toEqual([]);
      const rows = await db.query<{ id: number }>("select id from schema_migrations order by id");
      expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    });

    it("binds parameters, so injection strings are stored as plain text", async () => {
      const evil = "x'); drop table users; --";
      const rows = await db.query<{ v: string }>("select $1::text as v", [evil]);
      expect(rows[0]!.v).toBe(evil);
      expect(await countUsers(db)).toBe(0);
    });

    it("answers a NUL character in text or jsonb as the caller's bad_request, not a database fault", async () => {
      const refused = { code: "bad_request", message: expect.stringContaining("NUL character") };
      await expect(searchEnvironments(db, { query: "math\0", limit: 10 })).rejects.toMatchObject(refused);
      await expect(db.query("select $1::jsonb as v", ['{"note": "a\\u0000b"}'])).rejects.toMatchObject(
        refused,
      );
      await expect(
        db.transaction(async (tx) => {
          await insertUser(tx, { name: "nul", passwordHash: null, isAdmin: false });
          await tx.query("select $1::text as v", ["a\0b"]);
        }),
      ).rejects.toMatchObject(refused);
      expect(await countUsers(db)).toBe(0);
    });

    it("rolls a transaction back when its function throws, and commits when it resolves", async () => {
      await expect(
        db.transaction(async (tx) => {
          await insertUser(tx, { name: "ghost", passwordHash: null, isAdmin: false });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await countUsers(db)).toBe(0);
      await db.transaction((tx) => insertUser(tx, { name: "ada", passwordHash: null, isAdmin: true }));
      expect(await countUsers(db)).toBe(1);
      await expect(insertUser(db, { name: "ada", passwordHash: null, isAdmin: false })).rejects.toMatchObject(
        {
          code: "conflict",
        },
      );
    });

    it("stores keys by hash, finds their owner, and forgets revoked ones", async () => {
      const ada = (await db.query<{ id: number }>("select id from users where name = 'ada'"))[0]!;
      await insertApiKey(db, {
        userId: ada.id,
        name: "laptop",
        prefix: "vf_abc",
        keyHash: "h1",
        scope: "write",
      });
      expect(await findKeyOwner(db, "h1")).toMatchObject({
        userName: "ada",
        scope: "write",
        prefix: "vf_abc",
      });
      expect(await revokeApiKey(db, ada.id, "vf_abc")).toBe(true);
      expect(await findKeyOwner(db, "h1")).toBeNull();
    });

    it("makes one version when the same content is pushed concurrently", async () => {
      const ada = (await db.query<{ id: number }>("select id from users where name = 'ada'"))[0]!;
      const push = () =>
        db.transaction(async (tx) => {
          const { env } = await lockOrCreateEnvironment(tx, {
            owner: "ada",
            name: "race",
            visibility: "public",
          });
          return insertVersion(tx, version(env.id, "a".repeat(64), "1.0.0", ada.id));
        });
      const results = await Promise.all(Array.from({ length: 6 }, push));
      expect(results.filter((r) => r.type === "created")).toHaveLength(1);
      expect(results.filter((r) => r.type === "unchanged")).toHaveLength(5);
      const count = await db.query<{ n: number }>("select count(*)::int as n from versions");
      expect(count[0]!.n).toBe(1);
    });

    it("lists versions newest first, finds them by hash, picks the highest semver, refuses a taken label", async () => {
      const ada = (await db.query<{ id: number }>("select id from users where name = 'ada'"))[0]!;
      const { env } = await db.transaction((tx) =>
        lockOrCreateEnvironment(tx, { owner: "ada", name: "race", visibility: "public" }),
      );
      await insertVersion(db, version(env.id, "b".repeat(64), "1.10.0", ada.id));
      await insertVersion(db, version(env.id, "c".repeat(64), "1.9.0", ada.id));
      const versions = await listVersions(db, env.id);
      expect(versions.map((v) => v.semver)).toEqual(["1.9.0", "1.10.0", "1.0.0"]);
      expect(latestOf(versions)!.semver).toBe("1.10.0");
      expect((await findVersionByHash(db, env.id, "c".repeat(64)))!.semver).toBe("1.9.0");
      expect(await findVersionByHash(db, env.id, "d".repeat(64))).toBeNull();
      expect(await insertVersion(db, version(env.id, "e".repeat(64), "1.9.0", ada.id))).toMatchObject({
        type: "taken",
      });
    });

    it("searches names, descriptions and tags, hides others' private environments, and pages", async () => {
      for (const [name, visibility, description, tags] of [
        ["math-qa", "public", "grade-school math with tools", ["math"]],
        ["secret-sauce", "private", "hidden", ["math"]],
        ["wordle", "public", "a word game 100%_done", ["games"]],
      ] as const) {
        const { env } = await db.transaction((tx) =>
          lockOrCreateEnvironment(tx, { owner: "ada", name, visibility }),
        );
        await updateEnvironment(db, env.id, { description, tags: [...tags] });
      }
      const names = async (query: string, viewer: string | null = null) =>
        (await searchEnvironments(db, { query, viewer, limit: 10 })).map((e) => e.name);
      expect(await names("math")).toEqual(["math-qa"]);
      expect(await names("math", "ada")).toEqual(["secret-sauce", "math-qa"]);
      expect(await names("GAMES")).toEqual(["wordle"]);
      expect(await names("100%_")).toEqual(["wordle"]);
      expect(await names("%")).toEqual(["wordle"]);
      expect(await names("m%h")).toEqual([]);
      expect(await names("' or 1=1 --")).toEqual([]);
      const first = await searchEnvironments(db, { limit: 2 });
      expect(first).toHaveLength(3);
      const second = await searchEnvironments(db, { limit: 2, afterId: first[1]!.id });
      expect(second.map((e) => e.name)).toEqual(["race"]);
    });
  });
}
