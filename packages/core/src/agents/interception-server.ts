/**
 * The interception server: the one model endpoint agent programs are pointed at, for many rollouts
 * at once. It speaks the APIs agent CLIs speak, whole and streamed (SSE):
 *
 *   POST /v1/chat/completions        OpenAI chat completions (pi, opencode, vf's bash agent)
 *   POST /v1/responses               OpenAI Responses (Codex)
 *   POST /v1/messages                Anthropic Messages (Claude Code)
 *   POST /v1/messages/count_tokens   Anthropic's token count (an estimate: vf has no tokenizer here)
 *   GET  /v1/models, /v1/models/ID   the rollout's model
 *   POST /mcp/<secret>               the task's own tools, as an MCP server (task-tools.ts)
 *
 * Each rollout registers with its model route and gets a secret; a request is the rollout's whose
 * secret it carries (`Authorization: Bearer` or `x-api-key`), and one with an unknown secret gets
 * 401 and lands in no trace. Requests are read by core/dialects into chat requests, forwarded
 * through the rollout's `ModelClient` (intercepted-rollout.ts: overrides, limits, the tool-result
 * hook, the trace), and answered in the dialect the agent spoke. Streamed answers are written once
 * the model's whole answer is in; a call that takes longer than `keepAliveSeconds` gets its stream
 * opened early with SSE comments, so agents that time out idle streams (Codex) wait for it. The
 * server never reaches a model itself.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ModelResponse } from "../client/model-client.ts";
import {
  anthropicDialect,
  anthropicError,
  chatDialect,
  countTokensBody,
  type Dialect,
  type DialectAnswer,
  type DialectRequest,
  modelEntry,
  modelsListBody,
  openAIError,
  responsesDialect,
} from "../dialects/index.ts";
import type { ToolSession } from "../envs/tool-env.ts";
import type { AgentApi, AgentModel } from "./harness.ts";
import { InterceptedRollout, type RolloutRegistration } from "./intercepted-rollout.ts";
import { answerMcp } from "./task-tools.ts";

const DIALECTS = new Map<string, Dialect>(
  [chatDialect, responsesDialect, anthropicDialect].map((d) => [d.path, d]),
);

/** Request bodies larger than this are refused (413): a whole agent history is far smaller. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Where the server listens. */
export interface InterceptionServerOptions {
  /** Interface to listen on; default 127.0.0.1. A runtime whose agents run in another network namespace may need another. */
  host?: string;
  /** Port; default 0 (any free one). */
  port?: number;
  /**
   * A streamed call still waiting on the model after this long gets its stream opened and an SSE
   * comment sent, and again each time this long passes; default 10.
   */
  keepAliveSeconds?: number;
}

/** A running interception server. */
export interface InterceptionServer {
  /** The server's root URL, e.g. http://127.0.0.1:40123 (OpenAI clients add /v1; see `endpoint`). */
  readonly url: string;
  /**
   * Registers a rollout: its calls go to `registration.client` with `registration.model`, under the
   * overrides, limits and hook it names. Point the harness at `rollout.endpoint(api)`; read the
   * trace with `rollout.trace()`; `await rollout.end()` when the program has ended.
   */
  register(registration: RolloutRegistration): RegisteredRollout;
  /** Ends every rollout still registered and stops listening. */
  close(): Promise<void>;
}

/** A rollout as its host holds it. */
export interface RegisteredRollout {
  /** Names the rollout in ids; not a secret. */
  readonly id: string;
  /** The key the harness sends; the only way into this rollout's trace. */
  readonly secret: string;
  /** Where the harness's model traffic goes, in the API it speaks. */
  endpoint(api: AgentApi): AgentModel;
  /** The trace so far. */
  trace: InterceptedRollout["trace"];
  /** Refuses the secret from now on, cancels calls in flight, and returns the final trace. */
  end: InterceptedRollout["end"];
  /** Serves `tools` to this rollout's agent until it ends; returns their MCP server's URL. */
  serveTools(tools: ToolSession): string;
}

/**
 * Starts an interception server on 127.0.0.1 (a free port unless `port` is given).
 *
 * @example
 * const server = await startInterceptionServer();
 * const rollout = server.register({ client, model: "Qwen/Qwen3-0.6B", limits: task.limits });
 * await harness.run({ task, runtime, model: rollout.endpoint(harness.api), mcpUrls: [], signal });
 * const trace = await rollout.end({ exitCode: 0 });
 * await server.close();
 */
export async function startInterceptionServer(
  options: InterceptionServerOptions = {},
): Promise<InterceptionServer> {
  const keepAliveMs = (options.keepAliveSeconds ?? 10) * 1000;
  const rollouts = new Map<string, InterceptedRollout>();
  const toolSessions = new Map<string, ToolSession>();
  let counter = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, openAIError(500, `the interception server failed: ${String(error)}`));
      else res.destroy();
    });
  });
  // Agents keep connections open between turns; don't reap idle ones early.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url === undefined ? "" : req.url.split("?", 1)[0]!;
    if (raw.startsWith("/mcp/")) {
      // The secret is in the path: MCP clients are configured with a URL alone.
      const tools = toolSessions.get(raw.slice("/mcp/".length));
      if (tools !== undefined) return answerMcp(req, res, tools);
      req.resume();
      return sendJson(
        res,
        404,
        openAIError(404, "no tools are served at this URL: the rollout has ended, or it has none"),
      );
    }
    // Clients configured with the host alone, or with /v1, both reach the routes.
    const path = raw.startsWith("/v1/") ? raw : `/v1${raw}`;
    const anthropic = path.startsWith("/v1/messages") || req.headers["anthropic-version"] !== undefined;
    const fail = (status: number, message: string, code?: string) =>
      sendJson(res, status, anthropic ? anthropicError(status, message) : openAIError(status, message, code));

    const key = anthropicDialect.keyOf(req.headers);
    const rollout = key === undefined ? undefined : rollouts.get(key);
    if (rollout === undefined) {
      req.resume();
      return fail(
        401,
        "vf's interception server does not know this API key: use the rollout's secret",
        "invalid_api_key",
      );
    }
    if (req.method === "GET" && (path === "/v1/models" || path.startsWith("/v1/models/"))) {
      req.resume();
      if (path === "/v1/models") return sendJson(res, 200, modelsListBody([rollout.servedModel]));
      return sendJson(
        res,
        200,
        JSON.stringify(modelEntry(decodeURIComponent(path.slice("/v1/models/".length)))),
      );
    }
    const dialect = path === "/v1/messages/count_tokens" ? anthropicDialect : DIALECTS.get(path);
    if (req.method !== "POST" || dialect === undefined) {
      req.resume();
      return fail(
        404,
        `no route ${req.method} ${raw}: the interception server serves POST ${[...DIALECTS.keys()].join(", ")}, /v1/messages/count_tokens and GET /v1/models`,
      );
    }
    const text = await readBody(req);
    if (text === null) return fail(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return fail(400, "the request body is not valid JSON");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return fail(400, "the request body must be a JSON object");
    }
    if (path === "/v1/messages/count_tokens") {
      // count_tokens bodies have no max_tokens; the estimate reads what the model would be sent.
      const read = anthropicDialect.read({ max_tokens: 1, ...body }, req.headers);
      if (typeof read === "string") return fail(400, read);
      return sendJson(res, 200, countTokensBody(estimateTokens(read)));
    }
    const read = dialect.read(body, req.headers);
    if (typeof read === "string") return fail(400, read);

    // The agent hanging up cancels its call.
    const hangUp = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) hangUp.abort();
    });
    const keepAlive = read.stream
      ? setInterval(() => openStream(res, ": waiting for the model\n\n"), keepAliveMs)
      : undefined;
    const outcome = await rollout
      .call(read, dialect.api, hangUp.signal)
      .finally(() => clearInterval(keepAlive));
    if (res.destroyed) return;
    const id = `${dialect.idPrefix}vf-${rollout.id}-${counter++}`;
    const failStream = (status: number, message: string) => {
      if (!res.headersSent || !dialect.streamError) return fail(status, message);
      res.end(dialect.streamError(status, message, { id, created: now(), model: read.model }).join(""));
    };
    if (outcome.type === "error") return failStream(outcome.status, outcome.message);
    const answer = toAnswer(dialect, read, outcome.response, id);
    let written: string | string[];
    try {
      written = read.stream && dialect.events ? dialect.events(answer, read) : dialect.answer(answer, read);
    } catch (error) {
      return failStream(
        502,
        `the model's answer cannot be said over ${dialect.path}: ${(error as Error).message}`,
      );
    }
    if (typeof written === "string") return sendJson(res, 200, written);
    openStream(res, written.join(""));
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  return {
    url,
    register(registration) {
      const id = `r${(counter++).toString(36)}`;
      const secret = `vf-${randomBytes(24).toString("base64url")}`;
      const rollout = new InterceptedRollout(id, secret, registration, () => {
        rollouts.delete(secret);
        toolSessions.delete(secret);
      });
      rollouts.set(secret, rollout);
      return {
        id,
        secret,
        endpoint: (api) => ({
          baseUrl: api === "anthropic_messages" ? url : `${url}/v1`,
          apiKey: secret,
          name: rollout.servedModel,
        }),
        trace: () => rollout.trace(),
        end: (result) => rollout.end(result),
        serveTools: (tools) => {
          toolSessions.set(secret, tools);
          return `${url}/mcp/${secret}`;
        },
      };
    },
    async close() {
      await Promise.all([...rollouts.values()].map((rollout) => rollout.end({ stop: "cancelled" })));
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** Epoch seconds. */
function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** Writes to an event stream, sending its headers first if they are not yet. */
function openStream(res: ServerResponse, text: string): void {
  if (res.destroyed) return;
  if (!res.headersSent)
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(text);
}

/** The model's response as the dialect's answer; token fields only when the agent asked for them. */
function toAnswer(
  dialect: Dialect,
  request: DialectRequest,
  response: ModelResponse,
  id: string,
): DialectAnswer {
  return {
    id,
    created: now(),
    model: request.model || response.model,
    message: response.message,
    finishReason: response.finishReason === "other" ? "stop" : response.finishReason,
    usage: response.usage,
    tokens: dialect.wantsTokens(request) ? response.tokens : null,
  };
}

/** About four characters a token: what count_tokens answers, as no tokenizer is at hand. */
function estimateTokens(request: DialectRequest): number {
  const text = JSON.stringify(request.messages) + (request.tools ? JSON.stringify(request.tools) : "");
  return Math.ceil(text.length / 4);
}

/** The body as text, or null past MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      return null;
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString();
}

function sendJson(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}
