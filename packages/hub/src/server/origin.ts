/** The origin the Hub is reached at, for URLs it hands out (install commands, npm tarball URLs). */
import type { Context } from "hono";
import type { HubEnv } from "./hub-context.ts";

/** `publicUrl` when configured, else the origin of the request itself. */
export function originOf(c: Context<HubEnv>): string {
  return (c.get("hub").publicUrl ?? new URL(c.req.url).origin).replace(/\/$/, "");
}
