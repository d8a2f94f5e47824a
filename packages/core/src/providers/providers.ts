/**
 * Providers: shorthands for where a model is served, as verifiers' `-p` names them. Each gives the
 * base URL, the variable holding the key and the client type; a host's own settings (a base URL, a
 * key variable, a client type) override them one by one. `builtin` is vf's own: the built-in local
 * model (or a checkpoint folder of the engine), which the host serves itself.
 */
import type { ApiClientType } from "../client/client-type.ts";

/** A hosted or local API: its address, as core's `EndpointAddress` names it. */
export interface EndpointProvider {
  baseUrl: string;
  apiKeyVar: string;
  /** The API the endpoint speaks. */
  type: ApiClientType;
  /** Local servers often run without a key: the variable is read only when it is set. */
  keyOptional?: boolean;
}

const chat = "openai_chat_completions" as const;

/**
 * The providers, in the order `vf eval --help` lists them. URLs and key variables are verifiers'.
 * `builtin` is no endpoint (null): vf's built-in model, or an engine checkpoint folder given with -m.
 */
export const PROVIDERS = {
  openai: {
    baseUrl: "https://api.openai.com/v1",
    apiKeyVar: "OPENAI_API_KEY",
    type: chat,
  },
  anthropic: {
    baseUrl: "https://api.anthropic.com",
    apiKeyVar: "ANTHROPIC_API_KEY",
    type: "anthropic_messages",
  },
  openrouter: {
    baseUrl: "https://openrouter.ai/api/v1",
    apiKeyVar: "OPENROUTER_API_KEY",
    type: chat,
  },
  prime: {
    baseUrl: "https://api.pinference.ai/api/v1",
    apiKeyVar: "PRIME_API_KEY",
    type: chat,
  },
  deepseek: {
    baseUrl: "https://api.deepseek.com/v1",
    apiKeyVar: "DEEPSEEK_API_KEY",
    type: chat,
  },
  minimax: {
    baseUrl: "https://api.minimax.chat/v1",
    apiKeyVar: "MINIMAX_API_KEY",
    type: chat,
  },
  glm: {
    baseUrl: "https://open.bigmodel.cn/api/paas/v4",
    apiKeyVar: "GLM_API_KEY",
    type: chat,
  },
  vllm: {
    baseUrl: "http://localhost:8000/v1",
    apiKeyVar: "VLLM_API_KEY",
    type: chat,
    keyOptional: true,
  },
  local: {
    baseUrl: "http://localhost:8000/v1",
    apiKeyVar: "VLLM_API_KEY",
    type: chat,
    keyOptional: true,
  },
  builtin: null,
} as const satisfies Record<string, EndpointProvider | null>;

/** The name of a provider, e.g. "openrouter". */
export type ProviderName = keyof typeof PROVIDERS;

/** Whether `name` is a provider. */
export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}
