/**
 * Local models of the engine: the built-in one `vf eval` uses when no model or endpoint is given
 * (the shipped base model), and any folder of weights passed as `-m` (what `vf train` and `vf sft`
 * write; connect-model.ts finds the weights of a run or checkpoint folder). Each is served by the
 * engine's server, started in this process on a free loopback port and spoken to over HTTP like
 * any other endpoint, so rollouts carry vLLM's token fields when asked.
 * The engine answers chat completions and text completions; over text completions the prompt is
 * written in the engine's own chat template, so both APIs give the model the same tokens.
 */
import { UserError } from "@vf-rl/core";
import {
  type ApiClientType,
  createModelClient,
  NO_API_KEY,
  type TextPromptRenderer,
} from "@vf-rl/core/client";
import { BASE_MODEL_DIR, BUILTIN_MODEL_NAME, renderChat, tokenizer } from "@vf-rl/engine";
import { startServerForCli } from "../serve/start-server.ts";
import type { ConnectedModel } from "./connect-model.ts";

/** Options of `startLocalModel`. */
export interface LocalModelOptions {
  /** The checkpoint folder (config.json and model.safetensors). */
  checkpoint: string;
  /** The name the model is served and recorded under; default the folder as given. */
  modelName?: string;
  /** The API to call it through; default openai_chat_completions. */
  type?: ApiClientType;
}

/** Starts the built-in model; `close()` stops its server. */
export function startBuiltinModel(type?: ApiClientType): Promise<ConnectedModel> {
  return startLocalModel({
    checkpoint: BASE_MODEL_DIR,
    modelName: BUILTIN_MODEL_NAME,
    ...(type ? { type } : {}),
  });
}

/** Serves a checkpoint folder under `modelName` (default: the folder as given); `close()` stops it. */
export async function startLocalModel(options: LocalModelOptions): Promise<ConnectedModel> {
  const type = options.type ?? "openai_chat_completions";
  if (type !== "openai_chat_completions" && type !== "openai_completions") {
    throw new UserError(
      `the engine's server speaks openai_chat_completions and openai_completions, not ${type}: drop --api-client-type or pick one of those`,
    );
  }
  const modelName = options.modelName ?? options.checkpoint;
  const server = await startServerForCli({
    checkpoint: options.checkpoint,
    modelName,
    host: "127.0.0.1",
    port: 0,
  });
  const client = createModelClient({
    type,
    baseUrl: server.url,
    apiKey: NO_API_KEY,
    renderPrompt: engineTextPrompt,
  });
  return {
    model: modelName,
    clients: [client],
    baseUrl: server.url,
    endpoints: [{ type, baseUrl: server.url, apiKeyVar: null, headers: {} }],
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * The engine's chat template as text (`<|bos|><|system|>...<|eot|>...<|assistant|>`): its completions
 * route reads the special tokens back from their names, so the model sees what the chat route gives it.
 */
export const engineTextPrompt: TextPromptRenderer = (messages) => {
  let ids: number[];
  try {
    ids = renderChat(messages as Parameters<typeof renderChat>[0], { addGenerationPrompt: true });
  } catch (error) {
    throw new UserError(
      `the engine's chat template takes text messages only (${(error as Error).message.split("\n")[0]}): use text prompts with the built-in model`,
      { cause: error },
    );
  }
  return tokenizer.decode(ids);
};
