/**
 * Reading a request's JSON body under a size cap, for both of the engine's servers (the
 * OpenAI-compatible one and the trainer's). Each refusal is an `HTTPException` with the status a
 * client can act on (413 over the cap, 400 for an empty body or one that is not JSON), which each
 * server answers in its own error shape.
 */
import type { HonoRequest } from "hono";
import { HTTPException } from "hono/http-exception";

/** How a server reads bodies. */
export interface BodyLimit {
  /** Largest body in bytes. */
  maxBytes: number;
  /** What a client with a larger body should do, e.g. "send smaller micro-batches". */
  tooLargeHint: string;
}

/**
 * The body parsed as JSON. A declared Content-Length over the cap is refused before a byte is read;
 * a body without one (chunked) is counted as it arrives and refused at the cap, and the server
 * drains the rest, so the client reads the 413 rather than a reset connection.
 */
export async function readJsonBody(req: HonoRequest, limit: BodyLimit): Promise<unknown> {
  const tooLarge = (): HTTPException =>
    new HTTPException(413, {
      message: `the request body is larger than this server's limit of ${limit.maxBytes} bytes: ${limit.tooLargeHint}`,
    });
  const declared = req.header("content-length");
  let text: string;
  if (declared !== undefined) {
    if (Number(declared) > limit.maxBytes) throw tooLarge();
    text = await req.text(); // the HTTP parser stops at the declared length
  } else {
    text = await readCapped(req.raw.body, limit.maxBytes, tooLarge);
  }
  if (text.trim() === "") {
    throw new HTTPException(400, { message: "the request body is empty: send a JSON object" });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HTTPException(400, {
      message: `the request body is not valid JSON (${(error as Error).message}): send a JSON object`,
    });
  }
}

async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: () => HTTPException,
): Promise<string> {
  if (body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks).toString("utf8");
}
