/**
 * API keys: `vf_<8 prefix chars>_<43 secret chars>`, 256 bits of randomness in all. The Hub stores
 * only the prefix (to list and revoke by) and a SHA-256 of the whole key. A fast hash is right here,
 * unlike for passwords: a key is random and too long to guess, so nothing is gained by slowing each
 * guess down, while every API request must look its key up (an indexed equality on the hash).
 */
import { createHash, randomBytes } from "node:crypto";

/** A freshly made key: show `key` once, store `prefix` and `hash`. */
export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

const KEY = /^vf_([A-Za-z0-9]{8})_[A-Za-z0-9_-]{43}$/;

/** A new random key with its prefix and hash. */
export function generateApiKey(): NewApiKey {
  const prefix = `vf_${randomBytes(6).toString("base64url").replace(/[-_]/g, "x").slice(0, 8)}`;
  const key = `${prefix}_${randomBytes(32).toString("base64url")}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The stored form of a key: lowercase hex SHA-256. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Whether `text` has the shape of a vf API key (a cheap check before any lookup). */
export function looksLikeApiKey(text: string): boolean {
  return KEY.test(text);
}
