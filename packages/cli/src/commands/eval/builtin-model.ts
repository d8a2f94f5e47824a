/**
 * The built-in local model `vf eval` uses when no model or endpoint is given: the engine's server
 * on the shipped base model, started in this process on a free loopback port and spoken to over
 * HTTP like any other endpoint, so its rollouts carry vLLM's token fields when asked.
 */
import { OpenAIModelClient } from "@vf-rl/core";
import { BASE_MODEL_DIR, BUILTIN_MODEL_NAME } from "@vf-rl/engine";
import { startServerForCli } from "../serve/start-server.ts";
import type { ConnectedModel } from "./connect-model.ts";

/** Starts the built-in model; `close()` stops its server. */
export async function startBuiltinModel(): Promise<ConnectedModel> {
  const server = await startServerForCli({
    checkpoint: BASE_MODEL_DIR,
    modelName: BUILTIN_MODEL_NAME,
    host: "127.0.0.1",
    port: 0,
  });
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
  return {
    model: BUILTIN_MODEL_NAME,
    clients: [client],
    baseUrl: server.url,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
