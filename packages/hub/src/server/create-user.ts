/**
 * `vf hub user create NAME`: adds a user (and a first write key, shown once) straight in the Hub's
 * database, for admins at the command line. With the embedded database, stop the server first (PGlite
 * allows one process); with PostgreSQL it can run beside a live Hub.
 */
import { randomBytes } from "node:crypto";
import { issueApiKey } from "../auth/issue-api-key.ts";
import { hashPassword } from "../auth/password.ts";
import { insertUser } from "../store/users-store.ts";
import { openHubDatabase } from "./start-hub.ts";

/** Options of `createHubUser`. */
export interface CreateHubUserOptions {
  /** The Hub's data folder (for the embedded database). */
  dataDir: string;
  databaseUrl?: string;
  name: string;
  /** Password for the web pages; default a random one, returned. */
  password?: string;
  admin?: boolean;
}

/** Creates the user and a write key; returns both secrets, which are not stored in clear. */
export async function createHubUser(
  options: CreateHubUserOptions,
): Promise<{ user: string; password: string; apiKey: string }> {
  const db = await openHubDatabase(options);
  try {
    const password = options.password ?? randomBytes(12).toString("base64url");
    return await db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        name: options.name,
        passwordHash: await hashPassword(password),
        isAdmin: options.admin ?? false,
      });
      const key = await issueApiKey(tx, user.id, "created at the command line", "write");
      return { user: user.name, password, apiKey: key.key };
    });
  } finally {
    await db.close();
  }
}
