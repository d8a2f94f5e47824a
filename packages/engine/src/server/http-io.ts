/**
 * Reading request bodies (with a size cap) and writing JSON and server-sent events, over node:http.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, badRequest } from "./api-error.ts";

/** Reads and parses a JSON body of at most `maxBytes` bytes: 413 beyond it, 400 for bad JSON. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const tooLarge = (): ApiError =>
    new ApiError(
      413,
      `the request body is larger than this server's limit of ${maxBytes} bytes: send a smaller request (or start the server with a larger maxBodyBytes)`,
      "invalid_request_error",
      "request_too_large",
    );
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  // past the limit the rest is read and dropped, not left unread: leaving the loop early would
  // destroy the socket, and the client would see a reset instead of the 413
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  if (size > maxBytes) throw tooLarge();
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw badRequest("the request body is empty: send a JSON object");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`the request body is not valid JSON (${(error as Error).message}): send a JSON object`);
  }
}

/** Writes a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(data),
  });
  res.end(data);
}

/** Writes an error in OpenAI's shape. */
export function sendError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.status, error.body());
}

/** A stream of server-sent events (`data: <json>` lines, closed by `data: [DONE]`). */
export class EventStream {
  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
  }

  /** Sends one event holding `data` as JSON. */
  send(data: unknown): void {
    if (!this.res.writableEnded) this.res.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  /** Sends `data: [DONE]` and ends the answer. */
  done(): void {
    if (!this.res.writableEnded) this.res.end("data: [DONE]\n\n");
  }

  /**
   * Ends the answer with a failure. The status line has gone out, so the error travels as an event
   * in OpenAI's shape, as OpenAI's servers do.
   */
  fail(error: Error): void {
    this.send({ error: { message: error.message, type: "server_error", param: null, code: null } });
    this.done();
  }
}
