/**
 * The routes of the engine's OpenAI-compatible server, as a hono app over one served model: what
 * `startEngineServer` listens with, and what tests call in process with `app.request()`.
 *
 *   GET  /health                 200 {"status": "ok"}
 *   GET  /v1/models              the one served model (with max_model_len)
 *   POST /v1/chat/completions    chat, whole or streamed (see chat-completions.ts)
 *   POST /v1/completions         raw text (see completions.ts)
 *   POST /update_weights         {"weight_dir": PATH}: load a checkpoint of the same config
 *
 * Every failure is answered in OpenAI's error shape (api-error.ts), and the server goes on serving.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { CheckpointError, EngineError, SamplingError, SequenceTooLongError } from "../errors.ts";
import { type BodyLimit, readJsonBody } from "../http/json-body.ts";
import { ApiError, badRequest, contextLengthExceeded, invalidBody } from "./api-error.ts";
import { chatCompletions } from "./chat-completions.ts";
import { completions } from "./completions.ts";
import { GenerationCancelledError } from "./generation-scheduler.ts";
import { UpdateWeightsRequest } from "./request-schemas.ts";
import type { RouteContext } from "./route-context.ts";

/** What the app serves besides the completion routes' context. */
export interface EngineAppOptions {
  ctx: RouteContext;
  /** Largest request body in bytes; larger ones get 413. */
  maxBodyBytes: number;
  /** Loads the weights in `dir` (POST /update_weights); resolves once they serve. */
  updateWeights(dir: string): Promise<void>;
  /** The folder the served weights came from, listed as the model's `root` (null for a model in memory). */
  weightDir(): string | null;
  /** Receives one line per internal error. */
  log: (line: string) => void;
}

const ROUTES: Record<string, string[]> = {
  "/health": ["GET"],
  "/v1/models": ["GET"],
  "/v1/chat/completions": ["POST"],
  "/v1/completions": ["POST"],
  "/update_weights": ["POST"],
};

/**
 * The engine server's routes.
 *
 * @example
 * const app = createEngineApp({ ctx, maxBodyBytes: 4 << 20, updateWeights, weightDir: () => null, log });
 * const response = await app.request("/v1/models");
 */
export function createEngineApp(options: EngineAppOptions): Hono {
  const { ctx } = options;
  const limit: BodyLimit = {
    maxBytes: options.maxBodyBytes,
    tooLargeHint: "send a smaller request (or start the server with a larger maxBodyBytes)",
  };
  const app = new Hono({ strict: false });
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.get("/v1/models", (c) =>
    c.json({
      object: "list",
      data: [
        {
          id: ctx.modelName,
          object: "model",
          created: 0,
          owned_by: "vf",
          root: options.weightDir(),
          max_model_len: ctx.config.maxSeqLen,
        },
      ],
    }),
  );
  app.post("/v1/chat/completions", async (c) => chatCompletions(c, await readJsonBody(c.req, limit), ctx));
  app.post("/v1/completions", async (c) => completions(c, await readJsonBody(c.req, limit), ctx));
  app.post("/update_weights", async (c) => {
    const parsed = UpdateWeightsRequest.safeParse(await readJsonBody(c.req, limit));
    if (!parsed.success) throw invalidBody(parsed.error, "update_weights request");
    await options.updateWeights(parsed.data.weight_dir);
    return c.json({ status: "ok", weight_dir: parsed.data.weight_dir });
  });
  for (const [path, methods] of Object.entries(ROUTES)) {
    app.all(path, (c) => {
      throw new ApiError(
        405,
        `${c.req.method} is not allowed on ${path}: use ${methods.join(" or ")}`,
        "invalid_request_error",
      );
    });
  }
  app.notFound((c) => {
    const known = "/v1/chat/completions, /v1/completions, /v1/models, /update_weights and /health";
    const error = new ApiError(
      404,
      `no route ${c.req.path}: this server answers ${known}`,
      "invalid_request_error",
    );
    return c.json(error.body(), 404);
  });
  app.onError((error, c) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500 && !(error instanceof GenerationCancelledError)) {
      options.log(`${c.req.method} ${c.req.path}: ${error.stack ?? String(error)}`);
    }
    return c.json(apiError.body(), apiError.status as 400);
  });
  return app;
}

/** The answer for whatever a route threw: its own ApiError, a 400 for the client's faults, else 500. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    const code = error.status === 413 ? "request_too_large" : null;
    return new ApiError(error.status, error.message, "invalid_request_error", code);
  }
  if (error instanceof SequenceTooLongError) return contextLengthExceeded(error.length, error.maxSeqLen);
  if (error instanceof CheckpointError || error instanceof SamplingError) return badRequest(error.message);
  if (error instanceof GenerationCancelledError) {
    return new ApiError(503, `${error.message}: retry on a running server`, "server_error");
  }
  const message = error instanceof EngineError || error instanceof Error ? error.message : String(error);
  return new ApiError(500, `internal error: ${message}: check the server's logs`, "server_error");
}
