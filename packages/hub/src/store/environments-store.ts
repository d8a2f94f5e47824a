/** Environments (`owner/name`): kind, visibility, description and tags, and text search over them. */
import type { Queryable } from "../db/database.ts";

/** public: anyone may read; private: only the owner (others get 404). */
export type Visibility = "public" | "private";

/** What the latest version's package holds: an environment, or a taskset that agents work on. */
export type EnvKind = "environment" | "taskset";

/** An environment as stored. */
export interface EnvironmentRecord {
  id: number;
  owner: string;
  name: string;
  kind: EnvKind;
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
  kind: row.kind,
  visibility: row.visibility,
  description: row.description,
  tags: row.tags,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/**
 * SQL that is true when the environment row `alias` is visible to the user named by the parameter
 * `viewer` (`$n`; null for a visitor): public, or that user's own.
 */
export function visibleEnvSql(alias: string, viewer: string): string {
  return `(${alias}.visibility = 'public' or ${alias}.owner = ${viewer}::text)`;
}

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

/** Sets the description, tags and (when given) kind and visibility, and marks the environment updated. */
export async function updateEnvironment(
  db: Queryable,
  id: number,
  fields: { description: string; tags: string[]; kind?: EnvKind; visibility?: Visibility },
): Promise<void> {
  await db.query(
    `update environments set description = $2, tags = $3, visibility = coalesce($4, visibility),
       kind = coalesce($5, kind), updated_at = now()
     where id = $1`,
    [id, fields.description, fields.tags, fields.visibility ?? null, fields.kind ?? null],
  );
}

/** Deletes the environment and, by cascade, its versions and reports. */
export async function deleteEnvironment(db: Queryable, id: number): Promise<void> {
  await db.query("delete from environments where id = $1", [id]);
}

/** One of an owner's environments, as their page lists it. */
export type OwnedEnvironment = Pick<EnvironmentRecord, "id" | "name" | "kind" | "visibility" | "description">;

/** The environments of `owner` that `viewer` (a user name, null for a visitor) may see, by name, `limit` at most. */
export async function listOwnerEnvironments(
  db: Queryable,
  owner: string,
  viewer: string | null,
  limit: number,
): Promise<OwnedEnvironment[]> {
  return db.query<OwnedEnvironment>(
    `select e.id, e.name, e.kind, e.visibility, e.description from environments e
     where e.owner = $1 and ${visibleEnvSql("e", "$2")} order by e.name limit $3`,
    [owner, viewer, limit],
  );
}

/** Filters of `searchEnvironments`. */
export interface EnvSearch {
  /** Words that must each appear in the id, description or tags (case-insensitive). */
  query?: string;
  owner?: string;
  /** Only this kind (tasksets, say); default both. */
  kind?: EnvKind;
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
    search.kind ?? null,
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
       and ($5::text is null or kind = $5::text)
       ${conditions.map((c) => `and ${c}`).join(" ")}
     order by id desc limit $4`,
    params,
  );
  return rows.map(toEnv);
}

/** Filters of `searchPublishedEnvironments`, lower-cased (npm search's words and qualifiers). */
export interface PublishedSearch {
  /** Who is asking: private environments of this user are included. */
  viewer: string | null;
  /** Only this owner's environments, when set. */
  owner: string | null;
  /** Any of these tags, when any. */
  keywords: string[];
  /** Words that must each appear in `@owner/name`, the description or the tags. */
  words: string[];
  /** Page size and offset. */
  size: number;
  from: number;
}

/** A matching environment with how well it matched. */
export interface PublishedHit
  extends Pick<EnvironmentRecord, "id" | "owner" | "name" | "description" | "tags"> {
  /** 10 for a word equal to the name or `@owner/name`, plus 1 for each word inside `@owner/name`. */
  relevance: number;
}

/**
 * One page of the environments with at least one version that match `search` and its viewer may see,
 * most relevant first (then most recently updated), and how many match in all.
 */
export async function searchPublishedEnvironments(
  db: Queryable,
  search: PublishedSearch,
): Promise<{ hits: PublishedHit[]; total: number }> {
  // Every word must appear, as in the Hub's own search: $4 holds them as escaped ILIKE patterns.
  const filters = [
    search.viewer,
    search.owner,
    search.keywords,
    search.words.map((word) => `%${escapeLike(word)}%`),
  ];
  const where = `where ${visibleEnvSql("e", "$1")}
      and ($2::text is null or e.owner = $2::text)
      and (cardinality($3::text[]) = 0 or e.tags && $3::text[])
      and not exists (select 1 from unnest($4::text[]) p
        where ('@' || e.owner || '/' || e.name || ' ' || e.description || ' ' || array_to_string(e.tags, ' '))
          not ilike p escape '\\')
      and exists (select 1 from versions v where v.env_id = e.id)`;
  // $5 holds the words: one equal to the name (or @owner/name) counts 10, each inside @owner/name 1.
  const relevance = `(case when e.name = any($5::text[]) or '@' || e.owner || '/' || e.name = any($5::text[])
      then 10 else 0 end)
    + (select count(*)::int from unnest($5::text[]) w where strpos('@' || e.owner || '/' || e.name, w) > 0)`;
  const [hits, counted] = await Promise.all([
    db.query<PublishedHit>(
      `select e.id, e.owner, e.name, e.description, e.tags, ${relevance} as relevance
       from environments e ${where}
       order by relevance desc, e.updated_at desc, e.id desc limit $6 offset $7`,
      [...filters, search.words, search.size, search.from],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from environments e ${where}`, filters),
  ]);
  return { hits, total: counted[0]!.n };
}

function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}
