/**
 * Resolves who a request comes from: an `Authorization: Bearer <key>` header (API and npm), else the
 * web session cookie. A bad key is an error, never a silent fallback to anonymous; repeated bad keys
 * from one address are answered 429, while a valid key always works (see auth-limits.ts).
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { hashApiKey, looksLikeApiKey } from "../auth/api-key.ts";
import { HubError } from "../hub-error.ts";
import { findKeyOwner, type KeyOwner, touchApiKey } from "../store/api-keys-store.ts";
import { findSession } from "../store/sessions-store.ts";
import type { HubEnv, Principal } from "./hub-context.ts";

/** Name of the web session cookie. */
export const SESSION_COOKIE = "vf_session";

/** The caller of `c`, or null when anonymous. */
export async function resolvePrincipal(c: Context<HubEnv>): Promise<Principal | null> {
  const hub = c.get("hub");
  const header = c.req.header("authorization");
  if (header) {
    const key = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    // A malformed key cannot be valid: no lookup. A valid one is looked up (cached) and always works,
    // however many invalid keys came from its address.
    const hash = key && looksLikeApiKey(key) ? hashApiKey(key) : null;
    const owner = hash
      ? await hub.cache.get<KeyOwner | null>(`key:${hash}`, () => findKeyOwner(hub.db, hash))
      : null;
    if (!owner) {
      const wait = hub.authLimits.invalidKey(clientAddress(c));
      if (wait > 0) {
        throw new HubError(
          "rate_limited",
          `too many requests with invalid keys from this address: wait ${wait} s, then use a valid key`,
          { retry_after: wait },
        );
      }
      throw new HubError(
        "unauthorized",
        "the API key is not valid (mistyped, revoked or from another Hub): run vf login, or set VF_API_KEY",
      );
    }
    // Off the request path, and at most once per cache lifetime per key: last-used is advisory, and
    // an UPDATE per request would make every authenticated read a write.
    void hub.cache
      .get(`touched:${owner.prefix}`, () => touchApiKey(hub.db, owner.prefix))
      .catch((error: unknown) =>
        console.error(`vf hub: could not record the use of key ${owner.prefix}:`, error),
      );
    return {
      userId: owner.userId,
      userName: owner.userName,
      isAdmin: owner.isAdmin,
      scope: owner.scope,
      via: { type: "key", prefix: owner.prefix, name: owner.keyName },
    };
  }
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return null;
  const session = await findSession(hub.db, token);
  if (!session) return null;
  return {
    userId: session.userId,
    userName: session.userName,
    isAdmin: session.isAdmin,
    scope: "write",
    via: { type: "session", csrfToken: session.csrfToken },
  };
}

/**
 * The client's address: the socket's, or, when the Hub is configured with a trusted proxy header
 * (`trustedProxyHeader`, e.g. `x-forwarded-for`), that header's last entry, the one the proxy in front
 * appended (entries before it are whatever the client sent). Without that option the header is
 * ignored, so a client cannot pick its own address to escape its limits.
 */
export function clientAddress(c: Context<HubEnv>): string {
  const header = c.get("hub").trustedProxyHeader;
  const forwarded = header ? c.req.header(header)?.split(",").at(-1)?.trim() : undefined;
  if (forwarded) return forwarded;
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "local";
}
