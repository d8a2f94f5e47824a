/**
 * Turns `-m` into the model id and endpoints to call: an alias found in the endpoint registry, or
 * else a literal model id served at the given base URL. Also reads API keys from their variables.
 */
import { MissingKeyError, ModelEndpointUnknownError } from "../errors.ts";
import { type ApiClientType, DEFAULT_CLIENT_TYPE } from "./client-type.ts";
import type { EndpointAddress, EndpointRegistry } from "./endpoint-registry.ts";

/** What `resolveModel` needs: the -m value and where to reach it. */
export interface ResolveModelOptions {
  /** A registry alias (an endpoint_id) or a literal model id. */
  model: string;
  /** The loaded endpoints.toml, if any. */
  registry?: EndpointRegistry;
  /**
   * Base URL (-b): where a literal model id is served; for a registry alias, the one endpoint used
   * instead of the alias's replicas.
   */
  baseUrl?: string;
  /** Variable holding the key (-k); for an alias it replaces the rows' own. None: a server without keys. */
  apiKeyVar?: string;
  /** The API (--api-client-type); for an alias it replaces the rows' own. Default openai_chat_completions. */
  type?: ApiClientType;
  /** Extra headers (--header), added to every endpoint's own. */
  headers?: Record<string, string>;
}

/** The model id to send and the replicas serving it (one for a literal model id). */
export interface ResolvedModel {
  model: string;
  /** The registry alias it came from, or null for a literal model id. */
  endpointId: string | null;
  endpoints: EndpointAddress[];
}

/**
 * Resolves `-m`: a registry alias gives that entry's model and replicas (with -b, -k and the type
 * overriding the rows' own when given, as in verifiers); anything else is a literal model id at
 * `baseUrl`.
 *
 * @example resolveModel({ model: "qwen3", registry }) // { model: "Qwen/Qwen3-0.6B", endpoints: [...] }
 * @example resolveModel({ model: "gpt-4.1-mini", baseUrl: "https://api.openai.com/v1", apiKeyVar: "OPENAI_API_KEY" })
 */
export function resolveModel(options: ResolveModelOptions): ResolvedModel {
  const extraHeaders = options.headers ?? {};
  const entry = options.registry?.get(options.model);
  if (entry) {
    const replicas =
      options.baseUrl !== undefined && options.baseUrl !== ""
        ? [{ ...entry.replicas[0]!, baseUrl: options.baseUrl }]
        : entry.replicas;
    return {
      model: entry.model,
      endpointId: entry.endpointId,
      endpoints: replicas.map((replica) => ({
        ...replica,
        ...(options.type ? { type: options.type } : {}),
        ...(options.apiKeyVar ? { apiKeyVar: options.apiKeyVar } : {}),
        headers: { ...replica.headers, ...extraHeaders },
      })),
    };
  }
  if (options.baseUrl === undefined || options.baseUrl === "") {
    throw new ModelEndpointUnknownError(options.model, options.registry?.path);
  }
  return {
    model: options.model,
    endpointId: null,
    endpoints: [
      {
        type: options.type ?? DEFAULT_CLIENT_TYPE,
        baseUrl: options.baseUrl,
        apiKeyVar: options.apiKeyVar ?? null,
        headers: { ...extraHeaders },
      },
    ],
  };
}

/** The key sent to a server that needs none (vLLM, vf serve): what verifiers and the OpenAI SDK send. */
export const NO_API_KEY = "EMPTY";

/**
 * The API key held by `apiKeyVar`; "EMPTY" when no variable is named (local servers ignore the key).
 * Throws `MissingKeyError` when the variable is named but unset or empty.
 */
export function resolveApiKey(apiKeyVar: string | null, env: NodeJS.ProcessEnv = process.env): string {
  if (apiKeyVar === null) return NO_API_KEY;
  const value = env[apiKeyVar];
  if (value === undefined || value === "") throw new MissingKeyError(apiKeyVar);
  return value;
}
