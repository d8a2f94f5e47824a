/**
 * The engine's OpenAI-compatible HTTP server, so that every part of vf (and any OpenAI client) talks
 * to the built-in model as it would to vLLM: a checkpoint (or a model in memory) loaded, its routes
 * (engine-app.ts) served on a port. Concurrent requests are batched together
 * (generation-scheduler.ts).
 */
import { isDeepStrictEqual } from "node:util";
import { BUILTIN_MODEL_NAME } from "../base-model.ts";
import { CONFIG_FILE, loadCheckpoint } from "../checkpoint/checkpoint.ts";
import type { ModelConfig } from "../config.ts";
import { CheckpointError } from "../errors.ts";
import { serveApp } from "../http/serve-app.ts";
import { Transformer } from "../model.ts";
import { createEngineApp } from "./engine-app.ts";
import { GenerationScheduler } from "./generation-scheduler.ts";
import type { RouteContext } from "./route-context.ts";

/** What to serve (a checkpoint directory, or a model in memory) and how. */
export type EngineServerOptions = (
  | {
      /** A checkpoint directory (config.json and model.safetensors). */
      checkpoint: string;
    }
  | {
      /**
       * A model in memory, e.g. a trainer's (`LocalTrainer.model`). Its parameters are read when
       * sampling starts from idle: change them between requests, or through /update_weights.
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
  /** Most sequences stepped together (default 64, per thread); more wait in arrival order. */
  maxBatch?: number;
  /**
   * Threads that sample (default "auto": 2 on a machine of two cores or more); each of n − 1 worker
   * threads steps a batch of its own, started when requests first run at once.
   */
  threads?: number | "auto";
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
  threads: "auto" as const,
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
    threads: options.threads ?? DEFAULTS.threads,
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
  const scheduler = new GenerationScheduler(model, {
    maxBatch: settings.maxBatch,
    threads: settings.threads,
  });
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

  const app = createEngineApp({
    ctx,
    maxBodyBytes: settings.maxBodyBytes,
    updateWeights,
    weightDir: () => weightDir,
    log,
  });
  const served = await serveApp(app, settings);
  let closing: Promise<void> | null = null;
  return {
    url: `${served.origin}/v1`,
    host: settings.host,
    port: served.port,
    modelName: settings.modelName,
    config: model.config,
    updateWeights,
    close: () => {
      closing ??= (async () => {
        scheduler.close(); // running generations end with GenerationCancelledError, answered 503
        await served.close();
      })();
      return closing;
    },
  };
}
