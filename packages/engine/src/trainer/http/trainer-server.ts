/**
 * Serves any `Trainer` over HTTP (the routes of trainer-wire.ts), so the gradient work can run on
 * another machine than the orchestrator: `vf trainer serve` puts the engine behind it, and
 * `HttpTrainer` is the client. Calls are answered in arrival order by the trainer, which runs them
 * one at a time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import type { ModelConfig } from "../../config.ts";
import { EngineError } from "../../errors.ts";
import { issuePath } from "../../schema-issues.ts";
import type { Trainer } from "../protocol.ts";
import {
  TRAINER_ROUTES,
  type TrainerErrorResponse,
  TrainerHealthResponse,
  type TrainerRoute,
} from "./trainer-wire.ts";

/** Options of `startTrainerServer`. */
export interface TrainerServerOptions {
  /** Port to listen on (default 0: a free port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1; 0.0.0.0 to accept other machines). */
  host?: string;
  /** The served model's architecture, reported by GET /health. */
  config?: ModelConfig;
  /** Largest request body in bytes (default 256 MiB). */
  maxBodyBytes?: number;
  /** Receives one line per failed call (default: stderr). */
  log?: (line: string) => void;
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

/** A request the server refuses, with its HTTP status. */
class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
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
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
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
  const byPath = new Map<string, TrainerRoute>(
    (Object.keys(TRAINER_ROUTES) as TrainerRoute[]).map((name) => [TRAINER_ROUTES[name].path, name]),
  );

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/health" && req.method === "GET") {
      return sendJson(
        res,
        200,
        TrainerHealthResponse.parse({ status: "ok", config: options.config ?? null }),
      );
    }
    const name = byPath.get(path);
    if (name === undefined) {
      throw new HttpRefusal(
        404,
        `no route ${req.method} ${path}: this trainer answers POST ${[...byPath.keys()].join(", ")} and GET /health`,
      );
    }
    if (req.method !== "POST") throw new HttpRefusal(405, `${path} takes POST, not ${req.method}`);
    const route = TRAINER_ROUTES[name];
    const parsed = route.request.safeParse(await readJson(req, settings.maxBodyBytes));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new HttpRefusal(
        400,
        `invalid ${path} body at ${issuePath(issue)}: ${issue.message}: send the trainer protocol's ${name} request`,
      );
    }
    const result = await handlers[name](parsed.data as never);
    sendJson(res, 200, result);
  };

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      const status = error instanceof HttpRefusal ? error.status : error instanceof EngineError ? 400 : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (status >= 500) log(`trainer ${req.url}: ${(error as Error)?.stack ?? message}`);
      const body: TrainerErrorResponse = {
        error: { type: error instanceof Error ? error.name : "Error", message },
      };
      if (res.headersSent) res.end();
      else sendJson(res, status, body);
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
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      throw new HttpRefusal(413, `the request body exceeds ${maxBytes} bytes: send smaller micro-batches`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    throw new HttpRefusal(
      400,
      `the request body is not JSON (${(error as Error).message}): send a JSON object`,
    );
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}
