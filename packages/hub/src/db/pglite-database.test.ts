import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countUsers, insertUser } from "../store/users-store.ts";
import { describeDatabaseContract } from "./database.contract.ts";
import { migrate } from "./migrate.ts";
import { openPgliteDatabase } from "./pglite-database.ts";

describeDatabaseContract("PGlite (in memory)", () => openPgliteDatabase());

describe("PGlite in a folder (vf hub serve's embedded database)", () => {
  it("keeps what was committed when it is closed and opened again", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-pglite-"));
    try {
      const first = await openPgliteDatabase(dir);
      await migrate(first);
      await insertUser(first, { name: "ada", passwordHash: null, isAdmin: true });
      await first.close();

      const again = await openPgliteDatabase(dir);
      expect(await migrate(again)).toEqual([]);
      expect(await countUsers(again)).toBe(1);
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
