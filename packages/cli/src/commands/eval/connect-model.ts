/**
 * Turns the model flags of one evaluation into clients: an endpoint_id of configs/endpoints.toml,
 * or a literal model id at -b (default: OpenAI's API with OPENAI_API_KEY), or, with no model at all,
 * the built-in local model. Each endpoint is checked before the run starts, so an unreachable server
 * or a rejected key stops the command with one line instead of failing every rollout.
 */
import { existsSync } from "node:fs";
import type { ModelClient } from "@vf-rl/core";
import {
  createReplicaClient,
  type EndpointAddress,
  loadEndpointRegistry,
  type ReplicaClient,
  resolveApiKey,
  resolveModel,
} from "@vf-rl/core/client";
import { ApiKeyRejectedError, EndpointUnreachableError } from "@vf-rl/core/errors";
import { startBuiltinModel } from "./builtin-model.ts";
import type { EvalSpec } from "./eval-spec.ts";

export interface ConnectedModel {
  model: string;
  /** One client per replica, used in turn per group. */
  clients: ModelClient[];
  /** For metadata.json: the replicas' base URLs, comma-joined. */
  baseUrl: string;
  /** Where the replicas are, for an env server that calls them itself (`--env-server`). */
  endpoints: EndpointAddress[];
  close(): Promise<void>;
}

const DEFAULT_ENDPOINTS = "configs/endpoints.toml";
const OPENAI_URL = "https://api.openai.com/v1";

export async function connectModel(spec: EvalSpec): Promise<ConnectedModel> {
  if (spec.model === undefined && spec.baseUrl === undefined) return startBuiltinModel();
  const path = spec.endpointsPath ?? DEFAULT_ENDPOINTS;
  const registry =
    spec.endpointsPath !== undefined || existsSync(path) ? await loadEndpointRegistry(path) : undefined;
  const model = spec.model ?? "default";
  const literal = !registry?.get(model);
  const resolved = resolveModel({
    model,
    ...(registry ? { registry } : {}),
    headers: spec.headers,
    ...(literal
      ? {
          baseUrl: spec.baseUrl ?? process.env.OPENAI_BASE_URL ?? OPENAI_URL,
          ...(spec.apiKeyVar
            ? { apiKeyVar: spec.apiKeyVar }
            : spec.baseUrl === undefined
              ? { apiKeyVar: "OPENAI_API_KEY" }
              : {}),
        }
      : {}),
  });
  const replicas: ReplicaClient = createReplicaClient(resolved);
  await Promise.all(resolved.endpoints.map((endpoint) => preflight(endpoint)));
  return {
    model: resolved.model,
    clients: [...replicas.replicas],
    baseUrl: replicas.baseUrl,
    endpoints: resolved.endpoints,
    close: () => replicas.close(),
  };
}

/** GET /models: fails fast on an unreachable server or a rejected key; other answers are fine. */
async function preflight(endpoint: EndpointAddress): Promise<void> {
  const { baseUrl, apiKeyVar } = endpoint;
  const key = resolveApiKey(apiKeyVar);
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, "")}/models`, {
      headers: { ...endpoint.headers, ...(key !== "EMPTY" ? { authorization: `Bearer ${key}` } : {}) },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new EndpointUnreachableError(baseUrl, error);
  }
  if (response.status === 401 || response.status === 403) {
    throw new ApiKeyRejectedError(
      baseUrl,
      response.status,
      apiKeyVar ?? undefined,
      await serverMessage(response),
    );
  }
  await response.body?.cancel();
}

/** What an error body says: OpenAI's `{error: {message}}` or a flat `{message}`; "" for anything else. */
async function serverMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown }; message?: unknown };
    const message = body.error?.message ?? body.message;
    return typeof message === "string" ? message : "";
  } catch {
    return "";
  }
}
