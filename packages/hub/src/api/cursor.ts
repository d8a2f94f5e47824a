/**
 * Opaque cursors of the API's paged lists. A cursor names the last row of the previous page (lists
 * are ordered by id, newest first), so pages stay stable while rows are added.
 */
import { HubError } from "../hub-error.ts";

/** The cursor that continues after the row with this id. */
export function encodeCursor(id: number): string {
  return Buffer.from(`v1:${id}`, "utf8").toString("base64url");
}

/** The id a cursor continues after; `bad_request` when it was not made by `encodeCursor`. */
export function decodeCursor(cursor: string): number {
  const match = /^v1:(\d{1,10})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match)
    throw new HubError("bad_request", "the cursor is not valid: pass the next_cursor of the previous page");
  return Number(match[1]);
}

/** One page of `rows` fetched with `limit + 1`: the rows and the cursor of the next page, if any. */
export function paginate<T extends { id: number }>(
  rows: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}
