/**
 * The embedded database: PGlite (PostgreSQL compiled to WASM) with its data in a folder on disk.
 * PGlite is an optional package of the Hub, loaded here only.
 */
import { importOptional } from "@vf-rl/core/loading";
import type { Database, Queryable } from "./database.ts";
import { asNulRefusal } from "./nul-refusal.ts";

/**
 * Opens (creating when absent) the PGlite database in `dataDir`; `undefined` keeps it in memory.
 * PGlite has one connection: its own mutex queues statements, and a transaction holds it whole.
 */
export async function openPgliteDatabase(dataDir?: string): Promise<Database> {
  const { PGlite } = await importOptional({
    name: "@electric-sql/pglite",
    neededBy: "the Hub server",
    load: () => import("@electric-sql/pglite"),
  });
  const db = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
  await db.waitReady;
  return {
    kind: "pglite",
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      try {
        return (await db.query<Row>(sql, params as unknown[])).rows;
      } catch (error) {
        throw asNulRefusal(error);
      }
    },
    async exec(sql: string): Promise<void> {
      await db.exec(sql);
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return db.transaction((tx) =>
        fn({
          async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
            try {
              return (await tx.query<Row>(sql, params as unknown[])).rows;
            } catch (error) {
              throw asNulRefusal(error);
            }
          },
          async exec(sql: string): Promise<void> {
            await tx.exec(sql);
          },
        }),
      );
    },
    close: () => db.close(),
  };
}
