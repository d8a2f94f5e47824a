/**
 * What an API route asks of its caller, checked once by the route table before the body is read, and
 * the type of caller its handler then receives. Whether the caller may touch the resource itself (its
 * own environment, its own report) is the handler's to check; who the caller is, is not.
 */
import { HubError } from "../hub-error.ts";
import type { Principal } from "../server/hub-context.ts";

/**
 * Who may call a route: `none` (the caller is not looked at), `optional` (anyone; signed-in callers
 * see more), `read` (any key or session), `write` (a write key or a session), `admin` (a write key or
 * session of an admin).
 */
export type RouteAuth = "none" | "optional" | "read" | "write" | "admin";

/** A caller allowed to change things: a write key or a web session. */
export type Writer = Principal & { scope: "write" };

/** A writer who is an admin. */
export type Admin = Writer & { isAdmin: true };

/** The caller a handler of a route with `auth` receives: null only where a route lets anyone in. */
export type RouteUser<A extends RouteAuth> = {
  none: null;
  optional: Principal | null;
  read: Principal;
  write: Writer;
  admin: Admin;
}[A];

/** What an admin route tells a user who is not an admin, unless the route says more. */
export const NOT_ADMIN = "only admins may do this: ask one";

/**
 * The caller `principal` as a route with `auth` needs it, else `unauthorized` (no key) or `forbidden`
 * (a read-only key on a write route; on an admin route, a user who is not an admin, told `notAdmin`).
 */
export function authorize<A extends RouteAuth>(
  principal: Principal | null,
  auth: A,
  notAdmin = NOT_ADMIN,
): RouteUser<A> {
  if (auth === "none") return null as RouteUser<A>;
  if (auth === "optional") return principal as RouteUser<A>;
  if (!principal)
    throw new HubError("unauthorized", "this needs an API key: run vf login, or set VF_API_KEY");
  if (auth === "read") return principal as RouteUser<A>;
  if (principal.scope !== "write") {
    const key = principal.via.type === "key" ? principal.via.prefix : "in use";
    throw new HubError(
      "forbidden",
      `the key ${key} is read-only: create a write key (vf login, or the account page)`,
    );
  }
  if (auth === "admin" && !principal.isAdmin) throw new HubError("forbidden", notAdmin);
  return principal as RouteUser<A>;
}
