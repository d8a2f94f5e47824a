/**
 * The one response envelope of the API: `{data}` on success, `{error: {code, message, details?}}` on
 * failure; and the one page shape of every list: `{items, next_cursor}`.
 */
import { z } from "zod";
import { HubErrorCode } from "../error-code.ts";

/** The body of every failed request. */
export const ErrorEnvelope = z.object({
  error: z.object({
    code: HubErrorCode,
    /** What went wrong and what to do, for people. */
    message: z.string(),
    /** Machine-readable specifics, e.g. `{field}` for validation errors. */
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** `{data: T}`, the body of every successful JSON request. */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** One page of a list; pass `next_cursor` back as `cursor` for the next page (null: no more). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

/** The query of every paged list. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;
