/** Environments (`owner/name`): visibility, description and tags, and text search over them. */
import type { Queryable } from "../db/database.ts";

/** public: anyone may read; private: only the owner (others get 404). */
export type Visibility = "public" | "private";

/** An environment as stored. */
export interface EnvironmentRecord {
  id: number;
  owner: string;
  name: string;
  visibility: Visibility;
  description: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

/** The table's row: the record's fields with the timestamps as the driver returns them. */
interface EnvRow extends Omit<EnvironmentRecord, "createdAt" | "updatedAt"> {
  created_at: Date;
  updated_at: Date;
}

const toEnv = (row: EnvRow): EnvironmentRecord => ({
  id: row.id,
  owner: row.owner,
  name: row.name,
  visibility: row.visibility,
  description: row.description,
  tags: row.tags,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** The environment `owner/name`, or null. */
export async function findEnvironment(
  db: Queryable,
  owner: string,
  name: string,
): Promise<EnvironmentRecord | null> {
  const rows = await db.query<EnvRow>("select * from environments where owner = $1 and name = $2", [
    owner,
    name,
  ]);
  return rows[0] ? toEnv(rows[0]) : null;
}

/**
 * The environment `owner/name`, created with `visibility` when absent, and locked for the rest of the
 * transaction so concurrent pushes to it run one after the other.
 */
export async function lockOrCreateEnvironment(
  tx: Queryable,
  env: { owner: string; name: string; visibility: Visibility },
): Promise<{ env: EnvironmentRecord; created: boolean }> {
  const inserted = await tx.query<EnvRow>(
    `insert into environments (owner, name, visibility) values ($1, $2, $3)
     on conflict (owner, name) do nothing returning *`,
    [env.owner, env.name, env.visibility],
  );
  const rows = await tx.query<EnvRow>(
    "select * from environments where owner = $1 and name = $2 for update",
    [env.owner, env.name],
  );
  return { env: toEnv(rows[0]!), created: inserted.length > 0 };
}

/** Sets the description, tags and (when given) visibility, and marks the environment updated. */
export async function updateEnvironment(
  db: Queryable,
  id: number,
  fields: { description: string; tags: string[]; visibility?: Visibility },
): Promise<void> {
  await db.query(
    `update environments set description = $2, tags = $3, visibility = coalesce($4, visibility), updated_at = now()
     where id = $1`,
    [id, fields.description, fields.tags, fields.visibility ?? null],
  );
}

/** Deletes the environment and, by cascade, its versions and reports. */
export async function deleteEnvironment(db: Queryable, id: number): Promise<void> {
  await db.query("delete from environments where id = $1", [id]);
}

/** Filters of `searchEnvironments`. */
export interface EnvSearch {
  /** Words that must each appear in the id, description or tags (case-insensitive). */
  query?: string;
  owner?: string;
  /** Who is asking: private environments of this user are included. */
  viewer?: string | null;
  /** Continue after this id (from a cursor). */
  afterId?: number;
  limit: number;
}

/** Environments visible to `viewer` that match, newest first, `limit + 1` rows (for paging). */
export async function searchEnvironments(db: Queryable, search: EnvSearch): Promise<EnvironmentRecord[]> {
  const params: unknown[] = [
    search.viewer ?? null,
    search.afterId ?? null,
    search.owner ?? null,
    search.limit + 1,
  ];
  const words = (search.query ?? "").split(/\s+/).filter(Boolean).slice(0, 8);
  const conditions = words.map((word) => {
    params.push(`%${escapeLike(word)}%`);
    return `(owner || '/' || name || ' ' || description || ' ' || array_to_string(tags, ' ')) ilike $${params.length} escape '\\'`;
  });
  const rows = await db.query<EnvRow>(
    `select * from environments
     where (visibility = 'public' or owner = $1)
       and ($2::int is null or id < $2::int)
       and ($3::text is null or owner = $3::text)
       ${conditions.map((c) => `and ${c}`).join(" ")}
     order by id desc limit $4`,
    params,
  );
  return rows.map(toEnv);
}

function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}
