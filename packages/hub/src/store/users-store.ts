/** Users of the Hub: a unique name, an optional password (for the web pages), an admin flag. */
import type { Queryable } from "../db/database.ts";
import { HubError } from "../hub-error.ts";

/** A user as stored, without the password hash. */
export interface UserRecord {
  id: number;
  name: string;
  isAdmin: boolean;
  createdAt: string;
}

/** Names a user may take: they become URL segments and npm scopes. */
export const USER_NAME = /^[a-z0-9][a-z0-9-]{1,38}$/;
/** Names that would shadow the Hub's own routes. */
const RESERVED = new Set([
  "api",
  "npm",
  "login",
  "logout",
  "account",
  "reports",
  "search",
  "static",
  "envs",
  "admin-api",
]);

interface UserRow {
  id: number;
  name: string;
  is_admin: boolean;
  created_at: Date;
  password_hash: string | null;
}

const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  isAdmin: row.is_admin,
  createdAt: row.created_at.toISOString(),
});

/** Creates a user; `conflict` when the name is taken, `validation_failed` when it is not allowed. */
export async function insertUser(
  db: Queryable,
  user: { name: string; passwordHash: string | null; isAdmin: boolean },
): Promise<UserRecord> {
  if (!USER_NAME.test(user.name) || RESERVED.has(user.name)) {
    throw new HubError(
      "validation_failed",
      `user name "${user.name}" is not allowed: use 2-39 lower-case letters, digits or '-', not a reserved word`,
      { field: "name" },
    );
  }
  const rows = await db.query<UserRow>(
    `insert into users (name, password_hash, is_admin) values ($1, $2, $3)
     on conflict (name) do nothing returning *`,
    [user.name, user.passwordHash, user.isAdmin],
  );
  if (!rows[0]) throw new HubError("conflict", `user "${user.name}" already exists: pick another name`);
  return toUser(rows[0]);
}

/** The user named `name` with its password hash, or null. */
export async function findUserByName(
  db: Queryable,
  name: string,
): Promise<(UserRecord & { passwordHash: string | null }) | null> {
  const rows = await db.query<UserRow>("select * from users where name = $1", [name]);
  return rows[0] ? { ...toUser(rows[0]), passwordHash: rows[0].password_hash } : null;
}

/** The user with this id, or null. */
export async function findUserById(db: Queryable, id: number): Promise<UserRecord | null> {
  const rows = await db.query<UserRow>("select * from users where id = $1", [id]);
  return rows[0] ? toUser(rows[0]) : null;
}

/** How many users exist (zero on a fresh Hub, which then bootstraps an admin). */
export async function countUsers(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>("select count(*)::int as n from users");
  return rows[0]!.n;
}

/**
 * Holds, until the transaction ends, the lock that Hubs sharing a database take to create the first
 * user, so Hubs starting together bootstrap one admin between them.
 */
export async function lockFirstUserCreation(tx: Queryable): Promise<void> {
  await tx.query("select pg_advisory_xact_lock(7436513)");
}
