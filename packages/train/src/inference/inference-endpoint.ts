/**
 * The inference side of a run: any server with the OpenAI API, vLLM's token fields and
 * `POST /update_weights {weight_dir}` (vf serve; prime-rl's vLLM by the same contract). By default
 * the engine's own server, started in this process on a loopback port; with a URL, an external one.
 * Either way the loop talks to it only over HTTP, as it would to vLLM.
 */
import { OpenAIModelClient, SystemError } from "@vf-rl/core";
import { NO_API_KEY } from "@vf-rl/core/client";
import { BUILTIN_MODEL_NAME, startEngineServer } from "@vf-rl/engine";
import { vfErrorOf } from "../engine-errors.ts";
import { listedServer } from "./listed-server.ts";

/** A server to sample from, and how to change its weights. */
export interface InferenceEndpoint {
  /** Base URL ending in /v1. */
  baseUrl: string;
  /** The model name requests carry. */
  model: string;
  /** The OpenAI client of the server (wrap it in a PolicyClient for training). */
  client: OpenAIModelClient;
  /** POST /update_weights: the server loads the checkpoint in `dir` (a path on its machine). */
  updateWeights(dir: string): Promise<void>;
  /** Closes the client, and the server when this process started it. */
  close(): Promise<void>;
}

/** Starts the engine's server in this process on `checkpoint`, listening on a free loopback port. */
export async function startLocalInference(checkpoint: string): Promise<InferenceEndpoint> {
  let server: Awaited<ReturnType<typeof startEngineServer>>;
  try {
    server = await startEngineServer({ checkpoint, modelName: BUILTIN_MODEL_NAME, port: 0, log: () => {} });
  } catch (error) {
    throw vfErrorOf(error);
  }
  const endpoint = endpointFor(server.url, BUILTIN_MODEL_NAME, NO_API_KEY);
  return {
    ...endpoint,
    close: async () => {
      await endpoint.close();
      await server.close();
    },
  };
}

/** Options of `connectInference`. */
export interface ConnectInferenceOptions {
  /** Base URL ending in /v1. */
  baseUrl: string;
  /** The model name; default the first one the server lists. */
  model?: string | undefined;
  /** Variable holding the API key; default none. */
  apiKeyVar?: string | undefined;
}

/** Connects to a running server, checking that it answers and which model it serves. */
export async function connectInference(options: ConnectInferenceOptions): Promise<InferenceEndpoint> {
  const { baseUrl, apiKey, model } = await listedServer(options.baseUrl, {
    model: options.model,
    apiKeyVar: options.apiKeyVar,
    hints: {
      what: "the inference server",
      start: "start it (vf serve --port 8000) and pass its URL ending in /v1 as --inference-url",
      modelKey: "inference.model",
    },
  });
  return endpointFor(baseUrl, model, apiKey);
}

function endpointFor(baseUrl: string, model: string, apiKey: string): InferenceEndpoint {
  const client = new OpenAIModelClient({ baseUrl, apiKey, maxRetries: 3, retryDelaySeconds: 0.2 });
  const root = baseUrl.replace(/\/v1$/, "");
  return {
    baseUrl,
    model,
    client,
    updateWeights: async (dir: string) => {
      let response: Response;
      try {
        response = await fetch(`${root}/update_weights`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(apiKey !== NO_API_KEY ? { authorization: `Bearer ${apiKey}` } : {}),
          },
          body: JSON.stringify({ weight_dir: dir }),
        });
      } catch (error) {
        throw new SystemError(
          `cannot reach ${root}/update_weights (${(error as Error).message}): is the inference server still running?`,
          { cause: error },
        );
      }
      if (!response.ok) {
        const text = await response.text().catch(() => "");
        throw new SystemError(
          `${root}/update_weights refused ${dir} (${response.status} ${text.slice(0, 300)}): the inference server must load weights from a folder it can read, of the model it serves`,
        );
      }
      await response.body?.cancel();
    },
    close: () => client.close(),
  };
}
