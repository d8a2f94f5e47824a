/** Brings a database to the newest schema by running the migrations it has not yet run, in order. */
import type { Database } from "./database.ts";
import { MIGRATIONS, type Migration } from "./migrations.ts";

// An arbitrary constant: hubs sharing one PostgreSQL server take this lock so one migrates at a time.
const MIGRATION_LOCK = 7_436_512;

/** Runs the pending migrations of `migrations` (default: the Hub's); returns the ids it ran. */
export async function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  await db.query(
    `create table if not exists schema_migrations (
      id integer primary key, name text not null, applied_at timestamptz not null default now())`,
  );
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    const done = new Set(
      (await tx.query<{ id: number }>("select id from schema_migrations")).map((r) => r.id),
    );
    const ran: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
      if (done.has(migration.id)) continue;
      await tx.exec(migration.sql);
      await tx.query("insert into schema_migrations (id, name) values ($1, $2)", [
        migration.id,
        migration.name,
      ]);
      ran.push(migration.id);
    }
    return ran;
  });
}
