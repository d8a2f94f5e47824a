/**
 * NUL characters (U+0000) never enter the Hub: PostgreSQL's text and jsonb cannot hold one, and no
 * name, search or field of the Hub means one. Each way in is checked once, where it enters, and the
 * refusal names the field: the URL (`refuseNulInUrl`, before any route runs), JSON and form bodies
 * (request-body.ts), a pushed package's manifest and README. The databases answer a NUL that got
 * past these with the same `bad_request` (db/nul-refusal.ts), never an internal error.
 */
import type { MiddlewareHandler } from "hono";
import { HubError } from "../hub-error.ts";

/**
 * Where in `value` a string or an object key holds a NUL, as a dotted path (`rows.3.completion`),
 * `""` when `value` itself is such a string, or null when none does. The first in document order;
 * walked without recursion, so any depth JSON.parse accepts is fine.
 */
export function nulPath(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === "string") {
      if (item.includes("\0")) return path;
      continue;
    }
    if (typeof item !== "object" || item === null) continue;
    const entries: [string, unknown][] = Array.isArray(item)
      ? item.map((child, i) => [String(i), child])
      : Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const childPath = path ? `${path}.${key}` : key;
      if (key.includes("\0")) return childPath;
      stack.push([child, childPath]);
    }
  }
  return null;
}

/** Where a request carries a value: its URL's query, a JSON body, a web form. */
export type RequestPart = "query" | "body" | "form";

/** Refuses with `bad_request`, naming the field, a request `part` whose value holds a NUL. */
export function refuseNul(value: unknown, part: RequestPart): void {
  const path = nulPath(value);
  if (path === null) return;
  const field = path || part;
  const written = part === "body" ? "\\u0000" : "%00";
  throw new HubError(
    "bad_request",
    `${part} field "${field}" holds a NUL character (${written}): nothing on the Hub is named or written with one, so remove it`,
    { field, in: part },
  );
}

/**
 * Refuses a URL whose path or query holds a NUL (`%00`), before any route reads it: no owner, name,
 * version or page has one, and a search for one could only fail in the database.
 */
export const refuseNulInUrl: MiddlewareHandler = async (c, next) => {
  const url = new URL(c.req.url);
  // A request line cannot carry a raw NUL, so in a path it can only come percent-encoded.
  if (/%00/i.test(url.pathname)) {
    throw new HubError(
      "bad_request",
      `the path ${url.pathname} holds a NUL character (%00): no owner, name, version or page of the Hub has one, so remove it`,
      { in: "path" },
    );
  }
  for (const [name, value] of url.searchParams) refuseNul({ [name]: value }, "query");
  await next();
};
