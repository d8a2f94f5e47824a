/**
 * Web sessions: a random token in an HttpOnly cookie; the database keeps only its SHA-256 and a CSRF
 * token the pages put in their forms.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../db/database.ts";

/** A live session with its user. */
export interface SessionRecord {
  userId: number;
  userName: string;
  isAdmin: boolean;
  csrfToken: string;
}

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Opens a session for `userId` lasting `days`; returns the cookie token. */
export async function createSession(db: Queryable, userId: number, days = 14): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.query(
    `insert into sessions (token_hash, user_id, csrf_token, expires_at)
     values ($1, $2, $3, now() + make_interval(days => $4))`,
    [hash(token), userId, randomBytes(24).toString("base64url"), days],
  );
  return token;
}

/** The live session of `token`, or null. */
export async function findSession(db: Queryable, token: string): Promise<SessionRecord | null> {
  const rows = await db.query<{ user_id: number; name: string; is_admin: boolean; csrf_token: string }>(
    `select s.user_id, u.name, u.is_admin, s.csrf_token from sessions s join users u on u.id = s.user_id
     where s.token_hash = $1 and s.expires_at > now()`,
    [hash(token)],
  );
  const row = rows[0];
  return row
    ? { userId: row.user_id, userName: row.name, isAdmin: row.is_admin, csrfToken: row.csrf_token }
    : null;
}

/** Ends the session of `token`. */
export async function deleteSession(db: Queryable, token: string): Promise<void> {
  await db.query("delete from sessions where token_hash = $1", [hash(token)]);
}
