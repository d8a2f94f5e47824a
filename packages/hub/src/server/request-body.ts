/**
 * Reading request bodies under a cap. Every route that takes a body names its cap (see
 * `BODY_LIMITS`); a body over it is refused with `payload_too_large` without being held: the declared
 * Content-Length is checked before a byte is read, then the stream is counted and cancelled at the
 * cap (chunked uploads declare no length). Routes that need a user check that first, so an anonymous
 * caller is answered 401 before any of its body is read. A pushed tarball is not read here but
 * streamed to disk (see staged-tarball.ts), under the same kind of cap.
 */
import type { Context } from "hono";
import { BODY_LIMITS } from "../api/body-limits.ts";
import { refuseNul } from "../api/nul-characters.ts";
import { HubError } from "../hub-error.ts";

function tooLarge(max: number): HubError {
  return new HubError(
    "payload_too_large",
    `the request body is over the limit of ${max} bytes for this route: send less (for reports, smaller chunks)`,
    { max_bytes: max },
  );
}

/** Refuses with `payload_too_large` a request whose declared Content-Length passes `max` bytes. */
export function refuseDeclaredOver(c: Context, max: number): void {
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > max) throw tooLarge(max);
}

/** The request body, or `payload_too_large` as soon as it is known to pass `max` bytes. */
export async function readCapped(c: Context, max: number): Promise<Uint8Array> {
  refuseDeclaredOver(c, max);
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) {
        // Cancelling tells the server to stop handing us the rest (it drains or closes the socket).
        await reader.cancel().catch(() => {});
        throw tooLarge(max);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}

/** The body parsed as JSON (empty is `{}`), capped at `max` bytes; a NUL in it is `bad_request`. */
export async function readJson(c: Context, max: number): Promise<unknown> {
  const text = Buffer.from(await readCapped(c, max)).toString("utf8");
  let value: unknown;
  try {
    value = text === "" ? {} : JSON.parse(text);
  } catch {
    throw new HubError("bad_request", "the request body is not valid JSON: send a JSON object");
  }
  // JSON can write a NUL only as the escape \u0000, so most bodies need no walk.
  if (text.includes("\\u0000")) refuseNul(value, "body");
  return value;
}

/** A web form's fields (urlencoded or multipart), capped at `BODY_LIMITS.form` bytes; no NULs. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const bytes = await readCapped(c, BODY_LIMITS.form);
  const type = c.req.header("content-type") ?? "application/x-www-form-urlencoded";
  let data: FormData;
  try {
    data = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new HubError("bad_request", "the form could not be read: submit it from the Hub's page");
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of data) if (typeof value === "string") fields[name] = value;
  refuseNul(fields, "form");
  return fields;
}
