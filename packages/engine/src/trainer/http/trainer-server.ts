/**
 * Serves any `Trainer` over HTTP (the routes of trainer-wire.ts), so the gradient work can run on
 * another machine than the orchestrator: `vf trainer serve` puts the engine behind it, and
 * `HttpTrainer` is the client. Calls are answered in arrival order by the trainer, which runs them
 * one at a time. `createTrainerApp` is the hono app (test it in process with `app.request()`),
 * `startTrainerServer` listens with it.
 */
import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import type { ModelConfig } from "../../config.ts";
import { EngineError } from "../../errors.ts";
import { type BodyLimit, readJsonBody } from "../../http/json-body.ts";
import { serveApp } from "../../http/serve-app.ts";
import { issuePath } from "../../schema-issues.ts";
import type { Trainer } from "../protocol.ts";
import {
  TRAINER_ROUTES,
  type TrainerErrorResponse,
  TrainerHealthResponse,
  type TrainerRoute,
} from "./trainer-wire.ts";

/** Options of `createTrainerApp`. */
export interface TrainerAppOptions {
  /** The served model's architecture, reported by GET /health. */
  config?: ModelConfig;
  /** Largest request body in bytes (default 256 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Receives one line per failed call (default: stderr). */
  log?: (line: string) => void;
}

/** Options of `startTrainerServer`. */
export interface TrainerServerOptions extends TrainerAppOptions {
  /** Port to listen on (default 0: a free port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1; 0.0.0.0 to accept other machines). */
  host?: string;
}

/** A running trainer server. */
export interface TrainerServer {
  /** Base URL, e.g. http://127.0.0.1:8200. */
  url: string;
  port: number;
  /** Stops listening and closes connections; the trainer itself stays open. */
  close(): Promise<void>;
}

const DEFAULTS = { port: 0, host: "127.0.0.1", maxBodyBytes: 256 * 1024 * 1024 };

/**
 * The trainer protocol's routes over `trainer`. Errors come back as `{"error": {"type", "message"}}`:
 * 400 for a request the trainer refuses (an `EngineError`: a bad batch, a missing checkpoint) or
 * that is not the protocol's, 404/405 for a wrong route or method, 413 over the body cap, 500 when
 * the trainer fails (logged).
 *
 * @example
 * const app = createTrainerApp(await createLocalTrainer({ config }), { config });
 * const health = await (await app.request("/health")).json();
 */
export function createTrainerApp(trainer: Trainer, options: TrainerAppOptions = {}): Hono {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const limit: BodyLimit = {
    maxBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    tooLargeHint: "send smaller micro-batches",
  };
  const handlers: Record<TrainerRoute, (body: never) => Promise<unknown>> = {
    forwardBackward: (b: z.infer<typeof TRAINER_ROUTES.forwardBackward.request>) =>
      trainer.forwardBackward(b.batch, b.loss),
    forward: (b: z.infer<typeof TRAINER_ROUTES.forward.request>) => trainer.forward(b.batch, b.loss),
    optimStep: (b: z.infer<typeof TRAINER_ROUTES.optimStep.request>) => trainer.optimStep(b),
    saveWeights: (b: z.infer<typeof TRAINER_ROUTES.saveWeights.request>) => trainer.saveWeights(b.dir),
    loadWeights: async (b: z.infer<typeof TRAINER_ROUTES.loadWeights.request>) => {
      await trainer.loadWeights(b.dir);
      return { ok: true };
    },
    saveState: (b: z.infer<typeof TRAINER_ROUTES.saveState.request>) => trainer.saveState(b.dir),
    loadState: async (b: z.infer<typeof TRAINER_ROUTES.loadState.request>) => {
      await trainer.loadState(b.dir);
      return { ok: true };
    },
    sample: (b: z.infer<typeof TRAINER_ROUTES.sample.request>) => trainer.sample(b),
  };
  const paths = Object.values(TRAINER_ROUTES).map((route) => route.path);

  const app = new Hono();
  app.get("/health", (c) =>
    c.json(TrainerHealthResponse.parse({ status: "ok", config: options.config ?? null })),
  );
  for (const name of Object.keys(TRAINER_ROUTES) as TrainerRoute[]) {
    const route = TRAINER_ROUTES[name];
    app.post(route.path, async (c) => {
      const parsed = route.request.safeParse(await readJsonBody(c.req, limit));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new HTTPException(400, {
          message: `invalid ${route.path} body at ${issuePath(issue)}: ${issue.message}: send the trainer protocol's ${name} request`,
        });
      }
      return c.json(await handlers[name](parsed.data as never));
    });
    app.all(route.path, (c) => {
      throw new HTTPException(405, { message: `${route.path} takes POST, not ${c.req.method}` });
    });
  }
  app.notFound((c) =>
    answerError(
      c,
      new HTTPException(404, {
        message: `no route ${c.req.method} ${c.req.path}: this trainer answers POST ${paths.join(", ")} and GET /health`,
      }),
      404,
    ),
  );
  app.onError((error, c) => {
    const status = error instanceof HTTPException ? error.status : error instanceof EngineError ? 400 : 500;
    if (status >= 500) log(`trainer ${c.req.path}: ${error.stack ?? error.message}`);
    return answerError(c, error, status);
  });
  return app;
}

/** The protocol's error answer for `error`. */
function answerError(c: Context, error: Error, status: number): Response {
  const body: TrainerErrorResponse = { error: { type: error.name, message: error.message } };
  return c.json(body, status as 400);
}

/**
 * Starts serving `trainer`.
 *
 * @example
 * const server = await startTrainerServer(await createLocalTrainer({ checkpoint: "ckpt" }), { port: 8200 });
 * const trainer = new HttpTrainer({ url: server.url });
 */
export async function startTrainerServer(
  trainer: Trainer,
  options: TrainerServerOptions = {},
): Promise<TrainerServer> {
  const settings = { ...DEFAULTS, ...options } satisfies TrainerServerOptions;
  const served = await serveApp(createTrainerApp(trainer, settings), settings);
  return {
    // a server on every interface is reached here through loopback
    url: settings.host === "0.0.0.0" ? `http://127.0.0.1:${served.port}` : served.origin,
    port: served.port,
    close: served.close,
  };
}
