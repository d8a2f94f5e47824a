/**
 * A PostgreSQL server reached by URL (`DATABASE_URL`), through a `pg` connection pool. `pg` is an
 * optional package of the Hub, loaded here only.
 */
import { importOptional } from "@vf-rl/core/loading";
import type { Pool, PoolClient } from "pg";
import type { Database, Queryable } from "./database.ts";
import { asNulRefusal } from "./nul-refusal.ts";

/** Options of `openPostgresDatabase`. */
export interface PostgresOptions {
  /** A `postgres://user:pass@host:port/db` URL. */
  url: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

/** Connects a pool to `url` and checks that the server answers. */
export async function openPostgresDatabase(options: PostgresOptions): Promise<Database> {
  const { default: pg } = await importOptional({
    name: "pg",
    neededBy: "a Hub on PostgreSQL",
    load: () => import("pg"),
  });
  // int8 (counts, sums) arrive as strings by default; the Hub's values fit in a double.
  pg.types.setTypeParser(20, (text) => Number(text));
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
  let closing = false;
  // An idle connection can be dropped by the server (restart, failover, shutdown); pg reports it on
  // the pool, and an unheard 'error' event would crash the process. The pool replaces the connection
  // on the next query; say so unless we are the ones closing.
  pool.on("error", (error) => {
    if (!closing)
      console.error(`vf hub: a PostgreSQL connection was dropped (${error.message}); it will be reopened`);
  });
  await pool.query("select 1");
  const run = async <Row>(client: Pool | PoolClient, sql: string, params: readonly unknown[]) => {
    try {
      return (await client.query(sql, params as unknown[])).rows as Row[];
    } catch (error) {
      throw asNulRefusal(error);
    }
  };
  return {
    kind: "postgres",
    query: <Row>(sql: string, params: readonly unknown[] = []) => run<Row>(pool, sql, params),
    exec: async (sql: string) => void (await pool.query(sql)),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn({
          query: <Row>(sql: string, params: readonly unknown[] = []) => run<Row>(client, sql, params),
          exec: async (sql: string) => void (await client.query(sql)),
        });
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback");
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => {
      closing = true;
      return pool.end();
    },
  };
}
