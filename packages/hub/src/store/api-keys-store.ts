/**
 * API keys at rest: only a SHA-256 of each key and its public prefix are stored (see
 * auth/api-key.ts for why a fast hash is right here). Keys are scoped read or write and revocable.
 */
import type { Queryable } from "../db/database.ts";

/** read: see your private environments and reports; write: also push, delete and upload. */
export type KeyScope = "read" | "write";

/** A key as listed to its owner: never the key itself. */
export interface ApiKeyRecord {
  prefix: string;
  name: string;
  scope: KeyScope;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Who a valid key belongs to. */
export interface KeyOwner {
  userId: number;
  userName: string;
  isAdmin: boolean;
  scope: KeyScope;
  prefix: string;
  keyName: string;
}

interface KeyRow {
  prefix: string;
  name: string;
  scope: KeyScope;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toKey = (row: KeyRow): ApiKeyRecord => ({
  prefix: row.prefix,
  name: row.name,
  scope: row.scope,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

/** Stores a new key's prefix and hash for `userId`. */
export async function insertApiKey(
  db: Queryable,
  key: { userId: number; name: string; prefix: string; keyHash: string; scope: KeyScope },
): Promise<ApiKeyRecord> {
  const rows = await db.query<KeyRow>(
    `insert into api_keys (user_id, name, prefix, key_hash, scope) values ($1, $2, $3, $4, $5) returning *`,
    [key.userId, key.name, key.prefix, key.keyHash, key.scope],
  );
  return toKey(rows[0]!);
}

/** The owner of the unrevoked key with this hash, or null. */
export async function findKeyOwner(db: Queryable, keyHash: string): Promise<KeyOwner | null> {
  const rows = await db.query<{
    user_id: number;
    user_name: string;
    is_admin: boolean;
    scope: KeyScope;
    prefix: string;
    name: string;
  }>(
    `select k.user_id, u.name as user_name, u.is_admin, k.scope, k.prefix, k.name
     from api_keys k join users u on u.id = k.user_id
     where k.key_hash = $1 and k.revoked_at is null`,
    [keyHash],
  );
  const row = rows[0];
  return row
    ? {
        userId: row.user_id,
        userName: row.user_name,
        isAdmin: row.is_admin,
        scope: row.scope,
        prefix: row.prefix,
        keyName: row.name,
      }
    : null;
}

/** Records that the key was used (at most the time of the call). */
export async function touchApiKey(db: Queryable, prefix: string): Promise<void> {
  await db.query("update api_keys set last_used_at = now() where prefix = $1", [prefix]);
}

/** Every key of `userId`, newest first, revoked ones included. */
export async function listApiKeys(db: Queryable, userId: number): Promise<ApiKeyRecord[]> {
  const rows = await db.query<KeyRow>("select * from api_keys where user_id = $1 order by id desc", [userId]);
  return rows.map(toKey);
}

/** Revokes `userId`'s key with this prefix; false when it has none such (or it is already revoked). */
export async function revokeApiKey(db: Queryable, userId: number, prefix: string): Promise<boolean> {
  const rows = await db.query(
    "update api_keys set revoked_at = now() where user_id = $1 and prefix = $2 and revoked_at is null returning prefix",
    [userId, prefix],
  );
  return rows.length > 0;
}
