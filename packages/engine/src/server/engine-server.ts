/**
 * The engine's OpenAI-compatible HTTP server, so that every part of vf (and any OpenAI client) talks
 * to the built-in model as it would to vLLM:
 *
 *   GET  /health                 200 {"status": "ok"}
 *   GET  /v1/models              the one served model (with max_model_len)
 *   POST /v1/chat/completions    chat, whole or streamed (see chat-completions.ts)
 *   POST /v1/completions         raw text (see completions.ts)
 *   POST /update_weights         {"weight_dir": PATH}: load a checkpoint of the same config
 *
 * Concurrent requests are batched together (generation-scheduler.ts). Bad requests get OpenAI-shaped
 * errors (api-error.ts) and the server goes on serving.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { BUILTIN_MODEL_NAME } from "../base-model.ts";
import { CONFIG_FILE, loadCheckpoint } from "../checkpoint/checkpoint.ts";
import type { ModelConfig } from "../config.ts";
import { CheckpointError, EngineError, SamplingError, SequenceTooLongError } from "../errors.ts";
import { Transformer } from "../model.ts";
import { ApiError, badRequest, contextLengthExceeded, invalidBody } from "./api-error.ts";
import { chatCompletions } from "./chat-completions.ts";
import { completions } from "./completions.ts";
import { GenerationCancelledError, GenerationScheduler } from "./generation-scheduler.ts";
import { readJsonBody, sendError, sendJson } from "./http-io.ts";
import { UpdateWeightsRequest } from "./request-schemas.ts";
import type { RouteContext } from "./route-context.ts";

/** What to serve (a checkpoint directory, or a model in memory) and how. */
export type EngineServerOptions = (
  | {
      /** A checkpoint directory (config.json and model.safetensors). */
      checkpoint: string;
    }
  | {
      /**
       * A model in memory, e.g. a trainer's (`LocalTrainer.model`). Its parameters are read at every
       * step: change them between requests, or through /update_weights.
       */
      model: Transformer;
    }
) & {
  /** Port to listen on (default 0: a free port; see `EngineServer.port`). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** The name clients give as `model` (default "vf-builtin"); other names get 404. */
  modelName?: string;
  /** Most sequences stepped together (default 64); more wait in arrival order. */
  maxBatch?: number;
  /** Largest request body in bytes (default 4 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Logprob returned per token: of the processed distribution (default, what RL needs) or the raw softmax. */
  logprobsMode?: "processed" | "raw";
  /** Receives one line per weight update and per internal error (default: internal errors to stderr). */
  log?: (line: string) => void;
};

/** A running engine server. */
export interface EngineServer {
  /** Base URL for OpenAI clients, ending in /v1, e.g. http://127.0.0.1:8000/v1. */
  url: string;
  host: string;
  port: number;
  modelName: string;
  /** The served model's architecture. */
  config: ModelConfig;
  /** Loads the weights in `dir` as POST /update_weights does; resolves once they serve. */
  updateWeights(dir: string): Promise<void>;
  /** Cancels running generations, stops listening and closes every connection. */
  close(): Promise<void>;
}

const DEFAULTS = {
  port: 0,
  host: "127.0.0.1",
  modelName: BUILTIN_MODEL_NAME,
  maxBatch: 64,
  maxBodyBytes: 4 * 1024 * 1024,
  logprobsMode: "processed" as const,
};

/**
 * Starts the engine's OpenAI-compatible server.
 *
 * @example
 * const server = await startEngineServer({ checkpoint: "packages/engine/models/base", port: 8000 });
 * const client = new OpenAI({ baseURL: server.url, apiKey: "EMPTY" });
 * await client.chat.completions.create({ model: "vf-builtin", messages: [{ role: "user", content: "hi" }] });
 * await server.close();
 */
export async function startEngineServer(options: EngineServerOptions): Promise<EngineServer> {
  const settings = {
    port: options.port ?? DEFAULTS.port,
    host: options.host ?? DEFAULTS.host,
    modelName: options.modelName ?? DEFAULTS.modelName,
    maxBatch: options.maxBatch ?? DEFAULTS.maxBatch,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    logprobsMode: options.logprobsMode ?? DEFAULTS.logprobsMode,
  };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let model: Transformer;
  let weightDir: string | null = null;
  if ("checkpoint" in options) {
    const { config, params } = await loadCheckpoint(options.checkpoint);
    model = new Transformer(config, { params });
    weightDir = options.checkpoint;
  } else {
    model = options.model;
  }
  const scheduler = new GenerationScheduler(model, { maxBatch: settings.maxBatch });
  const ctx: RouteContext = {
    scheduler,
    config: model.config,
    modelName: settings.modelName,
    defaults: { logprobsMode: settings.logprobsMode },
  };

  const updateWeights = async (dir: string): Promise<void> => {
    await scheduler.updateWeights(async () => {
      const { config, params } = await loadCheckpoint(dir);
      if (!isDeepStrictEqual(config, model.config)) {
        throw new CheckpointError(
          `${dir}/${CONFIG_FILE} has config ${JSON.stringify(config)} but the served model has ` +
            `${JSON.stringify(model.config)}: update_weights loads weights of the same architecture; start a new server for another`,
          dir,
        );
      }
      return params;
    });
    weightDir = dir;
    options.log?.(`loaded weights from ${dir}`);
  };

  const routes: Record<
    string,
    Record<string, (req: IncomingMessage, res: ServerResponse, signal: AbortSignal) => Promise<void>>
  > = {
    "/health": { GET: async (_req, res) => sendJson(res, 200, { status: "ok" }) },
    "/v1/models": {
      GET: async (_req, res) =>
        sendJson(res, 200, {
          object: "list",
          data: [
            {
              id: settings.modelName,
              object: "model",
              created: 0,
              owned_by: "vf",
              root: weightDir,
              max_model_len: model.config.maxSeqLen,
            },
          ],
        }),
    },
    "/v1/chat/completions": {
      POST: async (req, res, signal) =>
        chatCompletions(await readJsonBody(req, settings.maxBodyBytes), ctx, res, signal),
    },
    "/v1/completions": {
      POST: async (req, res, signal) =>
        completions(await readJsonBody(req, settings.maxBodyBytes), ctx, res, signal),
    },
    "/update_weights": {
      POST: async (req, res) => {
        const parsed = UpdateWeightsRequest.safeParse(await readJsonBody(req, settings.maxBodyBytes));
        if (!parsed.success) throw invalidBody(parsed.error, "update_weights request");
        await updateWeights(parsed.data.weight_dir);
        sendJson(res, 200, { status: "ok", weight_dir: parsed.data.weight_dir });
      },
    },
  };

  const server = createServer((req, res) => {
    const controller = new AbortController();
    // the client went away before the answer was complete: stop generating for it
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "") || "/";
    const route = routes[path];
    const handler = route?.[req.method ?? "GET"];
    const answer = handler
      ? handler(req, res, controller.signal)
      : Promise.reject(
          route
            ? new ApiError(
                405,
                `${req.method} is not allowed on ${path}: use ${Object.keys(route).join(" or ")}`,
                "invalid_request_error",
              )
            : new ApiError(
                404,
                `no route ${path}: this server answers /v1/chat/completions, /v1/completions, /v1/models, /update_weights and /health`,
                "invalid_request_error",
              ),
        );
    answer.catch((error: unknown) => {
      const apiError = toApiError(error);
      if (apiError.status >= 500 && !(error instanceof GenerationCancelledError)) {
        log(`${req.method} ${path}: ${(error as Error)?.stack ?? String(error)}`);
      }
      if (res.headersSent) res.end();
      else sendError(res, apiError);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}/v1`,
    host: settings.host,
    port,
    modelName: settings.modelName,
    config: model.config,
    updateWeights,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        scheduler.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The answer for whatever a handler threw: its own ApiError, a 400 for the client's faults, else 500. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof SequenceTooLongError) return contextLengthExceeded(error.length, error.maxSeqLen);
  if (error instanceof CheckpointError || error instanceof SamplingError) return badRequest(error.message);
  if (error instanceof GenerationCancelledError) {
    return new ApiError(503, `${error.message}: retry on a running server`, "server_error");
  }
  const message = error instanceof EngineError || error instanceof Error ? error.message : String(error);
  return new ApiError(500, `internal error: ${message}: check the server's logs`, "server_error");
}
