/**
 * Local models of the engine: the built-in one `vf eval` uses when no model or endpoint is given
 * (the shipped base model), and any checkpoint folder passed as `-m` (what `vf train` and `vf sft`
 * write). Each is served by the engine's server, started in this process on a free loopback port
 * and spoken to over HTTP like any other endpoint, so rollouts carry vLLM's token fields when asked.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { OpenAIModelClient } from "@vf-rl/core";
import { BASE_MODEL_DIR, BUILTIN_MODEL_NAME } from "@vf-rl/engine";
import { startServerForCli } from "../serve/start-server.ts";
import type { ConnectedModel } from "./connect-model.ts";

/** Starts the built-in model; `close()` stops its server. */
export function startBuiltinModel(): Promise<ConnectedModel> {
  return startLocalModel({ checkpoint: BASE_MODEL_DIR, modelName: BUILTIN_MODEL_NAME });
}

/** Whether `-m` names a checkpoint folder of the engine rather than a model id. */
export function isCheckpointFolder(model: string): boolean {
  return existsSync(join(model, "config.json")) && existsSync(join(model, "model.safetensors"));
}

/** Serves a checkpoint folder under `modelName` (default: the folder as given); `close()` stops it. */
export async function startLocalModel(options: {
  checkpoint: string;
  modelName?: string;
}): Promise<ConnectedModel> {
  const modelName = options.modelName ?? options.checkpoint;
  const server = await startServerForCli({
    checkpoint: options.checkpoint,
    modelName,
    host: "127.0.0.1",
    port: 0,
  });
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
  return {
    model: modelName,
    clients: [client],
    baseUrl: server.url,
    endpoints: [{ type: "openai_chat_completions", baseUrl: server.url, apiKeyVar: null, headers: {} }],
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
