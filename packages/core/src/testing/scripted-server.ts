/**
 * A real model server on loopback whose answers are scripted: for tests of vf and of environments,
 * and for benchmarks. It speaks every API vf's clients do, each at its own route and in its own wire
 * format (the codecs of core/dialects, which the interception server speaks too), all driven by the
 * same reply script (which sees each request as chat messages):
 *
 *   POST /v1/chat/completions   OpenAI chat completions, whole or streamed
 *   POST /v1/completions        OpenAI text completions
 *   POST /v1/responses          OpenAI Responses, whole or streamed
 *   POST /v1/messages           Anthropic Messages, with its headers and error shape, whole or streamed
 *   GET  /v1/models             the models served
 *
 * It returns vLLM's token fields when asked, and can answer with HTTP errors, dropped connections,
 * garbage bodies and empty answers. Per-request work is kept small: it runs in the throughput
 * benchmark at hundreds of concurrent connections.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  anthropicDialect,
  anthropicError,
  chatDialect,
  type Dialect,
  type DialectApi,
  type DialectRequest,
  modelsListBody,
  openAIError,
  responsesDialect,
  textCompletionDialect,
} from "../dialects/index.ts";
import { scriptedAnswer, scriptedTokenText } from "./scripted-answer.ts";
import {
  echoLastUser,
  type ReplyFn,
  type ScriptedReply,
  type ScriptedRequest,
  toScriptedReply,
} from "./scripted-reply.ts";

/** The APIs the scripted server speaks, named as vf's client types. */
export type ScriptedApi = DialectApi;

const DIALECTS = new Map<string, Dialect>(
  [chatDialect, textCompletionDialect, responsesDialect, anthropicDialect].map((d) => [d.path, d]),
);

/** How the scripted server behaves. Every field is optional. */
export interface ScriptedServerOptions {
  /** The script; defaults to `echoLastUser`. */
  reply?: ReplyFn;
  /** Delay before each chat answer, in seconds (a number, or a function of the request); default 0. */
  latencySeconds?: number | ((request: ScriptedRequest, index: number) => number);
  /** Return vLLM's token fields on every completion, not only when the request asks; default false. */
  tokens?: boolean;
  /**
   * When set, requests must carry this key as their API sends it (`Authorization: Bearer` for
   * OpenAI's, `x-api-key` for Anthropic's; either for GET /v1/models), else 401.
   */
  apiKey?: string;
  /** Models served, listed by GET /v1/models; when set, requests for other models get 404. */
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
  /**
   * The requests received, in arrival order, as scripts saw them: chat-completions bodies exactly as
   * sent; other APIs' as chat messages and OpenAI tools beside their other fields.
   */
  requests: ScriptedRequest[];
  /** The headers of those requests, same order. */
  headers: IncomingHttpHeaders[];
  /** The API each request came in on, same order. */
  apis: ScriptedApi[];
  /** The bodies of those requests exactly as sent, same order. */
  bodies: Record<string, unknown>[];
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

const DEFAULT_MODELS = ["scripted"];

/**
 * Starts a scripted model server on 127.0.0.1 (a free port unless `port` is given).
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
  const apis: ScriptedApi[] = [];
  const bodies: Record<string, unknown>[] = [];
  const pending = new Set<NodeJS.Timeout>();
  const served = options.models ?? DEFAULT_MODELS;
  const modelsBody = modelsListBody(served);
  let counter = 0;

  const answer = async (
    dialect: Dialect,
    req: IncomingMessage,
    res: ServerResponse,
    raw: string,
  ): Promise<void> => {
    const fail = (status: number, message: string, code?: string, format?: "openai" | "flat") =>
      sendJson(res, status, dialect.error(status, message, code, format));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(400, "request body is not valid JSON");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return fail(400, "request body must be a JSON object");
    }
    if (options.apiKey !== undefined && dialect.keyOf(req.headers) !== options.apiKey) {
      return fail(401, "Incorrect API key provided.", "invalid_api_key");
    }
    const read = dialect.read(body, req.headers);
    if (typeof read === "string") return fail(400, read);
    const request = scriptView(dialect, read);
    if (read.stream && !dialect.events) {
      return fail(400, `the scripted server does not stream ${dialect.path}: ask without stream`);
    }
    if (options.models && !options.models.includes(request.model)) {
      return fail(404, `The model \`${request.model}\` does not exist.`, "model_not_found");
    }
    const index = counter++;
    if (record) {
      requests.push(request);
      headers.push(req.headers);
      apis.push(dialect.api);
      bodies.push(body);
    }
    const latency =
      typeof options.latencySeconds === "function"
        ? options.latencySeconds(request, index)
        : (options.latencySeconds ?? 0);
    if (latency > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(timer);
          resolve();
        }, latency * 1000);
        pending.add(timer);
      });
      if (res.destroyed) return;
    }
    let scripted: ScriptedReply;
    try {
      scripted = toScriptedReply(await reply(request, index));
    } catch (error) {
      return fail(500, `the reply script threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    const context = {
      id: `${dialect.idPrefix}scripted-${index}`,
      created: Math.floor(Date.now() / 1000),
      withTokens: options.tokens === true || dialect.wantsTokens(read),
      index,
    };
    switch (scripted.type) {
      case "message": {
        const answer = scriptedAnswer(dialect.api, request, scripted, context);
        let text: string | string[];
        try {
          text =
            read.stream && dialect.events
              ? dialect.events({ ...answer, tokens: null }, read)
              : dialect.answer(answer, read, scriptedTokenText);
        } catch (error) {
          return fail(500, `the reply cannot be sent over ${dialect.path}: ${(error as Error).message}`);
        }
        return typeof text === "string" ? sendJson(res, 200, text) : sendStream(res, text);
      }
      case "empty": {
        const head = { id: context.id, created: context.created, model: request.model };
        if (read.stream && dialect.events) return sendStream(res, dialect.events(head, read));
        return sendJson(res, 200, dialect.empty(head));
      }
      case "error":
        return fail(scripted.status, scripted.message, scripted.code, scripted.format);
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
          res.write(`{"id":"${context.id}","choices":[{"index":0,`);
          // Let the partial body reach the client before the connection dies.
          setImmediate(() => req.socket.destroy());
          return;
        }
        req.socket.destroy();
        return;
    }
  };

  const server = createServer((req, res) => {
    const path = req.url === undefined ? "" : req.url.split("?", 1)[0]!;
    if (req.method === "GET" && path === "/v1/models") {
      req.resume();
      const key = options.apiKey;
      if (key !== undefined && anthropicDialect.keyOf(req.headers) !== key) {
        const anthropic = req.headers["x-api-key"] !== undefined;
        const message = "Incorrect API key provided.";
        sendJson(
          res,
          401,
          anthropic ? anthropicError(401, message) : openAIError(401, message, "invalid_api_key"),
        );
        return;
      }
      sendJson(res, 200, modelsBody);
      return;
    }
    const dialect = req.method === "POST" ? DIALECTS.get(path) : undefined;
    if (dialect === undefined) {
      req.resume();
      sendJson(
        res,
        404,
        openAIError(
          404,
          `no route ${req.method} ${path}: the scripted server serves POST ${[...DIALECTS.keys()].join(", ")} and GET /v1/models`,
        ),
      );
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString();
      answer(dialect, req, res, raw).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, dialect.error(500, String(error)));
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
    apis,
    bodies,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * A request as reply scripts see it: a chat-completions body exactly as sent; another API's fields
 * with its conversation as chat messages and its tools as chat tools.
 */
function scriptView(dialect: Dialect, read: DialectRequest): ScriptedRequest {
  if (dialect.api === "openai_chat_completions") return read.body as ScriptedRequest;
  return {
    ...read.body,
    model: read.model,
    messages: read.messages,
    ...(read.tools !== undefined ? { tools: read.tools } : {}),
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
