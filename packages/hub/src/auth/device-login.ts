/**
 * The browser approval flow of `vf login`: the CLI starts it with a one-time RSA public key and gets
 * a secret device code plus a short user code; the user, signed in on the Hub's page, approves that
 * user code; the Hub then makes a write key, encrypts it to the CLI's public key (RSA-OAEP, SHA-256)
 * and hands it over on the CLI's next poll, once. The key never sits in the database in clear.
 */
import { constants, createHash, createPublicKey, publicEncrypt, randomBytes, randomInt } from "node:crypto";
import type { DevicePoll, DeviceStart } from "../api/schemas/account-schemas.ts";
import type { Database } from "../db/database.ts";
import { HubError } from "../hub-error.ts";
import {
  approveDeviceLogin,
  deleteDeviceLogin,
  denyDeviceLogin,
  findPendingClientName,
  insertDeviceLogin,
  lockDeviceLoginByCode,
  lockPendingDeviceLogin,
} from "../store/device-logins-store.ts";
import { issueApiKey } from "./issue-api-key.ts";

/** How long a started login waits for approval. */
const TTL_MINUTES = 10;
// No 0/O, 1/I/L: the user compares this code by eye.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

const hash = (code: string) => createHash("sha256").update(code).digest("hex");

/** Starts a login for the CLI; `origin` is where the approval page is served. */
export async function startDeviceLogin(
  db: Database,
  request: { clientName: string; publicKey: string; origin: string },
): Promise<DeviceStart> {
  try {
    const key = createPublicKey(request.publicKey);
    if (key.asymmetricKeyType !== "rsa") throw new Error("not RSA");
  } catch {
    throw new HubError(
      "validation_failed",
      'body field "public_key": must be an RSA public key in PEM (SPKI)',
      { field: "public_key" },
    );
  }
  const deviceCode = randomBytes(32).toString("base64url");
  const raw = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  const userCode = `${raw.slice(0, 4)}-${raw.slice(4)}`;
  const expiresAt = await insertDeviceLogin(db, {
    deviceCodeHash: hash(deviceCode),
    userCode,
    publicKey: request.publicKey,
    clientName: request.clientName,
    ttlMinutes: TTL_MINUTES,
  });
  return {
    device_code: deviceCode,
    user_code: userCode,
    verification_url: `${request.origin}/login/device?code=${userCode}`,
    expires_at: expiresAt.toISOString(),
    interval_seconds: 2,
  };
}

/** The pending login with this user code: what the approval page shows. */
export async function findPendingLogin(
  db: Database,
  userCode: string,
): Promise<{ clientName: string } | null> {
  const clientName = await findPendingClientName(db, userCode.toUpperCase());
  return clientName === null ? null : { clientName };
}

/** The signed-in user approves (or denies) the login `userCode`. */
export async function decideDeviceLogin(
  db: Database,
  userCode: string,
  userId: number,
  approve: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    const login = await lockPendingDeviceLogin(tx, userCode.toUpperCase());
    if (!login)
      throw new HubError("not_found", `login code ${userCode} is unknown or expired: run vf login again`);
    if (!approve) {
      await denyDeviceLogin(tx, login.id, userId);
      return;
    }
    const created = await issueApiKey(tx, userId, `vf login: ${login.clientName}`, "write");
    const encrypted = publicEncrypt(
      { key: login.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(created.key, "utf8"),
    ).toString("base64");
    await approveDeviceLogin(tx, login.id, userId, encrypted);
  });
}

/** What the CLI's poll gets; an approved login is handed over once and then forgotten. */
export async function pollDeviceLogin(db: Database, deviceCode: string): Promise<DevicePoll> {
  return db.transaction(async (tx) => {
    const login = await lockDeviceLoginByCode(tx, hash(deviceCode));
    if (!login)
      throw new HubError("not_found", "this login request is unknown or expired: run vf login again");
    if (login.status === "pending") return { status: "pending" };
    await deleteDeviceLogin(tx, login.id);
    if (login.status === "denied") return { status: "denied" };
    return { status: "approved", user: login.userName!, encrypted_key: login.encryptedKey! };
  });
}
