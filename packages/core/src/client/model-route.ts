/**
 * The one way vf reaches a model: from what a user names (a model id or an endpoint_id of the
 * registry, a provider, a base URL, a key variable, an API) to the model id to send and the
 * endpoints serving it, as verifiers resolves its own `-m`, `-p`, `-b`, `-k`. `vf eval`, `vf doctor`
 * and the interception server resolve models here; clients for the endpoints come from
 * `createReplicaClient` (a run's model) or `ClientLeases` (endpoints a request names).
 */

import { type EndpointProvider, PROVIDERS, type ProviderName } from "../providers/providers.ts";
import type { ApiClientType } from "./client-type.ts";
import type { EndpointRegistry } from "./endpoint-registry.ts";
import { type ResolvedModel, type ResolveModelOptions, resolveModel } from "./resolve-model.ts";

/** What names a model and where it is served; every field is optional, as on a command line. */
export interface ModelRoute {
  /** A model id or an endpoint_id of `registry`; default "default". */
  model?: string | undefined;
  /** A provider's URL, key variable and API, under the fields below. */
  provider?: ProviderName | undefined;
  baseUrl?: string | undefined;
  apiKeyVar?: string | undefined;
  type?: ApiClientType | undefined;
  /** Extra headers, added to every endpoint's own. */
  headers?: Record<string, string> | undefined;
  /** The loaded endpoints.toml, if any. */
  registry?: EndpointRegistry | undefined;
}

/**
 * The model id and endpoints a route names (never a local model: the host serves those): an
 * endpoint_id's rows with whatever the route's base URL, key variable, API and provider say
 * instead, as in verifiers; or a literal model id at the base URL, else at the provider's, else at
 * OpenAI's (`OPENAI_BASE_URL` when set). `env` holds the variables read: a local server's optional
 * key, `OPENAI_BASE_URL`.
 *
 * @example resolveRoute({ provider: "openrouter", model: "qwen/qwen3-8b" })
 * // { model: "qwen/qwen3-8b", endpoints: [{ baseUrl: "https://openrouter.ai/api/v1", apiKeyVar: "OPENROUTER_API_KEY", ... }] }
 */
export function resolveRoute(route: ModelRoute, env: NodeJS.ProcessEnv = process.env): ResolvedModel {
  const model = route.model ?? "default";
  const options: ResolveModelOptions = {
    model,
    headers: route.headers ?? {},
    ...(route.registry ? { registry: route.registry } : {}),
  };
  const provider = (route.provider && PROVIDERS[route.provider]) ?? undefined;
  if (route.registry?.get(model)) {
    // The registry's rows, with whatever the route (and a provider) say instead, as in verifiers.
    const baseUrl = route.baseUrl ?? provider?.baseUrl;
    const apiKeyVar = route.apiKeyVar ?? (provider ? providerKeyVar(provider, env) : undefined);
    const type = route.type ?? provider?.type;
    Object.assign(options, {
      ...(baseUrl ? { baseUrl } : {}),
      ...(apiKeyVar ? { apiKeyVar } : {}),
      ...(type ? { type } : {}),
    });
  } else {
    // A literal model id: at the base URL, else the provider's URL, else OpenAI's.
    const fallback = route.baseUrl === undefined ? defaultProvider(env) : undefined;
    const chosen = provider ?? fallback;
    const apiKeyVar = route.apiKeyVar ?? (chosen ? providerKeyVar(chosen, env) : undefined);
    Object.assign(options, {
      baseUrl: route.baseUrl ?? chosen?.baseUrl,
      type: route.type ?? chosen?.type ?? "openai_chat_completions",
      ...(apiKeyVar ? { apiKeyVar } : {}),
    });
  }
  return resolveModel(options);
}

/** With no provider and no base URL: OpenAI's API, at `OPENAI_BASE_URL` when it is set. */
function defaultProvider(env: NodeJS.ProcessEnv): EndpointProvider {
  const openai = PROVIDERS.openai;
  const baseUrl = env.OPENAI_BASE_URL;
  return baseUrl ? { ...openai, baseUrl } : openai;
}

/** A provider's key variable; for a local server, only when it is set (it may need no key). */
function providerKeyVar(provider: EndpointProvider, env: NodeJS.ProcessEnv): string | undefined {
  if (provider.keyOptional && !env[provider.apiKeyVar]) return undefined;
  return provider.apiKeyVar;
}
