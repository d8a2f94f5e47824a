/**
 * A real OpenAI-compatible HTTP server on loopback whose answers are scripted: for tests of vf and
 * of environments, and for benchmarks. It speaks POST /v1/chat/completions (whole or streamed) and
 * GET /v1/models, returns vLLM's token fields when asked, and can answer with HTTP errors, dropped
 * connections, garbage bodies and empty choices. Per-request work is kept small: it runs in the
 * throughput benchmark at hundreds of concurrent connections.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { completionBody, completionChunks, emptyBody } from "./scripted-completion.ts";
import {
  echoLastUser,
  type ReplyFn,
  type ScriptedReply,
  type ScriptedRequest,
  toScriptedReply,
} from "./scripted-reply.ts";

/** How the scripted server behaves. Every field is optional. */
export interface ScriptedServerOptions {
  /** The script; defaults to `echoLastUser`. */
  reply?: ReplyFn;
  /** Delay before each chat answer, in ms (a number, or a function of the request); default 0. */
  latencyMs?: number | ((request: ScriptedRequest, index: number) => number);
  /** Return vLLM's token fields on every completion, not only when the request asks; default false. */
  tokens?: boolean;
  /** When set, chat requests must send `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
  /** Models served, listed by GET /v1/models; when set, chat requests for other models get 404. */
  models?: string[];
  /** Keep every request body and headers in `requests`/`headers`; default true (off for benchmarks). */
  record?: boolean;
  /** Port to listen on; default 0 (any free port). */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
}

/** A running scripted server. */
export interface ScriptedServer {
  /** Base URL for OpenAI clients, ending in /v1, e.g. http://127.0.0.1:40123/v1. */
  url: string;
  /** The chat request bodies received, in arrival order, exactly as sent. */
  requests: ScriptedRequest[];
  /** The headers of those requests, same order. */
  headers: IncomingHttpHeaders[];
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

const DEFAULT_MODELS = ["scripted"];

/**
 * Starts a scripted OpenAI-compatible server on 127.0.0.1 (a free port unless `port` is given).
 *
 * @example
 * const server = await startScriptedServer({ reply: fixedReply("4") });
 * const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
 * await server.close();
 */
export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const reply = options.reply ?? echoLastUser;
  const record = options.record ?? true;
  const requests: ScriptedRequest[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const pending = new Set<NodeJS.Timeout>();
  const modelsBody = JSON.stringify({
    object: "list",
    data: (options.models ?? DEFAULT_MODELS).map((id) => ({
      id,
      object: "model",
      created: 0,
      owned_by: "vf",
    })),
  });
  let counter = 0;

  const answerChat = async (req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> => {
    let request: ScriptedRequest;
    try {
      request = JSON.parse(raw) as ScriptedRequest;
    } catch {
      return sendError(res, 400, "request body is not valid JSON");
    }
    if (typeof request !== "object" || request === null || !Array.isArray(request.messages)) {
      return sendError(res, 400, "request body needs a messages array");
    }
    if (request.n !== undefined && request.n !== 1) {
      return sendError(res, 400, `the scripted server answers n=1 only, got n=${String(request.n)}`);
    }
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(res, 401, "Incorrect API key provided.", "invalid_api_key");
    }
    if (options.models && !options.models.includes(request.model)) {
      return sendError(res, 404, `The model \`${request.model}\` does not exist.`, "model_not_found");
    }
    const index = counter++;
    if (record) {
      requests.push(request);
      headers.push(req.headers);
    }
    const latency =
      typeof options.latencyMs === "function" ? options.latencyMs(request, index) : (options.latencyMs ?? 0);
    if (latency > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(timer);
          resolve();
        }, latency);
        pending.add(timer);
      });
      if (res.destroyed) return;
    }
    let scripted: ScriptedReply;
    try {
      scripted = toScriptedReply(await reply(request, index));
    } catch (error) {
      return sendError(
        res,
        500,
        `the reply script threw: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const context = {
      id: `chatcmpl-scripted-${index}`,
      created: Math.floor(Date.now() / 1000),
      withTokens: options.tokens === true || request.logprobs === true || request.return_token_ids === true,
    };
    switch (scripted.type) {
      case "message":
        if (request.stream === true)
          return sendStream(res, completionChunks(request, scripted, index, context));
        return sendJson(res, 200, completionBody(request, scripted, index, context));
      case "empty":
        if (request.stream === true) return sendStream(res, completionChunks(request, null, index, context));
        return sendJson(res, 200, emptyBody(request, context));
      case "error":
        return sendError(res, scripted.status, scripted.message, scripted.code, scripted.format);
      case "garbage":
        res.writeHead(200, {
          "content-type": scripted.contentType ?? "application/json",
          "content-length": Buffer.byteLength(scripted.body),
        });
        res.end(scripted.body);
        return;
      case "drop":
        if (scripted.midBody === true) {
          res.writeHead(200, { "content-type": "application/json", "content-length": 4096 });
          res.write('{"id":"chatcmpl-cut","choices":[{"index":0,');
          // Let the partial body reach the client before the connection dies.
          setImmediate(() => req.socket.destroy());
          return;
        }
        req.socket.destroy();
        return;
    }
  };

  const server = createServer((req, res) => {
    const path = req.url === undefined ? "" : req.url.split("?", 1)[0];
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, modelsBody);
      return;
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      req.resume();
      sendError(
        res,
        404,
        `no route ${req.method} ${path}: the scripted server serves POST /v1/chat/completions`,
      );
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString();
      answerChat(req, res, raw).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, String(error));
      });
    });
  });
  // Benchmarks open hundreds of keep-alive connections; don't let the server reap idle ones early.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/v1`,
    requests,
    headers,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function sendJson(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function sendStream(res: ServerResponse, events: string[]): void {
  if (res.destroyed) return;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(events.join(""));
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
};

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  code?: string,
  format: "openai" | "flat" = "openai",
): void {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");
  const error = { message, type, param: null, code: code ?? null };
  sendJson(res, status, JSON.stringify(format === "flat" ? { object: "error", ...error } : { error }));
}
