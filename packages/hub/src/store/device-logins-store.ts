/**
 * Browser logins of `vf login` (auth/device-login.ts is the flow): a hash of the CLI's secret device
 * code, the short user code shown to the user, the CLI's public key, and, once approved, the new key
 * encrypted to it. A login is `pending`, then `approved` or `denied`, and expires.
 */
import type { Queryable } from "../db/database.ts";

/** What starting a login stores. */
export interface NewDeviceLogin {
  /** sha256 (hex) of the device code; the code itself is never stored. */
  deviceCodeHash: string;
  userCode: string;
  /** The CLI's one-time RSA public key (PEM). */
  publicKey: string;
  clientName: string;
  /** Minutes from now until the login expires. */
  ttlMinutes: number;
}

/** A pending login as its approval needs it. */
export interface PendingDeviceLogin {
  id: number;
  publicKey: string;
  clientName: string;
}

/** A login as the CLI's poll finds it. */
export interface PolledDeviceLogin {
  id: number;
  status: "pending" | "approved" | "denied";
  /** The new key encrypted to the CLI's public key (base64), once approved. */
  encryptedKey: string | null;
  /** The name of the user who decided, once decided. */
  userName: string | null;
}

/** Stores a new pending login; returns when it expires. */
export async function insertDeviceLogin(db: Queryable, login: NewDeviceLogin): Promise<Date> {
  const rows = await db.query<{ expires_at: Date }>(
    `insert into device_logins (device_code_hash, user_code, public_key, client_name, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(mins => $5)) returning expires_at`,
    [login.deviceCodeHash, login.userCode, login.publicKey, login.clientName, login.ttlMinutes],
  );
  return rows[0]!.expires_at;
}

/** The client name of the unexpired pending login with this user code, or null. */
export async function findPendingClientName(db: Queryable, userCode: string): Promise<string | null> {
  const rows = await db.query<{ client_name: string }>(
    "select client_name from device_logins where user_code = $1 and status = 'pending' and expires_at > now()",
    [userCode],
  );
  return rows[0]?.client_name ?? null;
}

/** The unexpired pending login with this user code, locked for the transaction, or null. */
export async function lockPendingDeviceLogin(
  tx: Queryable,
  userCode: string,
): Promise<PendingDeviceLogin | null> {
  const rows = await tx.query<{ id: number; public_key: string; client_name: string }>(
    `select id, public_key, client_name from device_logins
     where user_code = $1 and status = 'pending' and expires_at > now() for update`,
    [userCode],
  );
  const row = rows[0];
  return row ? { id: row.id, publicKey: row.public_key, clientName: row.client_name } : null;
}

/** Marks the login denied by `userId`. */
export async function denyDeviceLogin(tx: Queryable, id: number, userId: number): Promise<void> {
  await tx.query("update device_logins set status = 'denied', user_id = $2 where id = $1", [id, userId]);
}

/** Marks the login approved by `userId`, holding the new key encrypted to the CLI. */
export async function approveDeviceLogin(
  tx: Queryable,
  id: number,
  userId: number,
  encryptedKey: string,
): Promise<void> {
  await tx.query(
    "update device_logins set status = 'approved', user_id = $2, encrypted_key = $3 where id = $1",
    [id, userId, encryptedKey],
  );
}

/** The unexpired login of this device code hash, locked for the transaction, or null. */
export async function lockDeviceLoginByCode(
  tx: Queryable,
  deviceCodeHash: string,
): Promise<PolledDeviceLogin | null> {
  const rows = await tx.query<{
    id: number;
    status: PolledDeviceLogin["status"];
    encrypted_key: string | null;
    name: string | null;
  }>(
    `select d.id, d.status, d.encrypted_key, u.name from device_logins d left join users u on u.id = d.user_id
     where d.device_code_hash = $1 and d.expires_at > now() for update of d`,
    [deviceCodeHash],
  );
  const row = rows[0];
  return row ? { id: row.id, status: row.status, encryptedKey: row.encrypted_key, userName: row.name } : null;
}

/** Forgets the login (once the CLI has what it came for). */
export async function deleteDeviceLogin(tx: Queryable, id: number): Promise<void> {
  await tx.query("delete from device_logins where id = $1", [id]);
}
