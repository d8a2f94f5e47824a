/** Makes a new API key for a user: stores its prefix and hash, returns the key once. */
import type { CreatedKey } from "../api/schemas/account-schemas.ts";
import type { Queryable } from "../db/database.ts";
import { insertApiKey, type KeyScope } from "../store/api-keys-store.ts";
import { generateApiKey } from "./api-key.ts";

/** A new key for `userId`; the returned `key` is the only copy that will ever exist. */
export async function issueApiKey(
  db: Queryable,
  userId: number,
  name: string,
  scope: KeyScope,
): Promise<CreatedKey> {
  const fresh = generateApiKey();
  const stored = await insertApiKey(db, { userId, name, prefix: fresh.prefix, keyHash: fresh.hash, scope });
  return {
    key: fresh.key,
    prefix: stored.prefix,
    name: stored.name,
    scope: stored.scope,
    created_at: stored.createdAt,
    last_used_at: null,
    revoked_at: null,
  };
}
