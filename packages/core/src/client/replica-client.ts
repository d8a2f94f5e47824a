/**
 * Model clients built from resolved endpoints, and `ReplicaClient`, which spreads calls over the
 * replicas of one model in turn. The evaluator takes one replica per group with `next()`, so a
 * group's rollouts share a server (and its prefix cache); `chat()` alone rotates per call.
 */
import { createModelClient, type HttpModelClient } from "./create-model-client.ts";
import type { EndpointAddress } from "./endpoint-registry.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { type ResolvedModel, resolveApiKey } from "./resolve-model.ts";
import type { TextPromptRenderer } from "./text-prompt.ts";

/** Client settings shared by every endpoint; type, key, URL and headers come from the endpoint. */
export type ClientSettings = Omit<ModelClientOptions, "baseUrl" | "apiKey" | "apiKeyVar" | "headers"> & {
  /** Where API keys are read from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** For `openai_completions` endpoints: how the conversation becomes text; default `plainTextPrompt`. */
  renderPrompt?: TextPromptRenderer;
};

/** A client for one endpoint, its key read from the endpoint's variable (MissingKeyError when unset). */
export function clientForEndpoint(endpoint: EndpointAddress, settings: ClientSettings = {}): HttpModelClient {
  const { env, ...clientOptions } = settings;
  return createModelClient({
    ...clientOptions,
    type: endpoint.type,
    baseUrl: endpoint.baseUrl,
    apiKey: resolveApiKey(endpoint.apiKeyVar, env),
    headers: endpoint.headers,
    ...(endpoint.apiKeyVar !== null ? { apiKeyVar: endpoint.apiKeyVar } : {}),
  });
}

/** Several clients of one model, used in turn. */
export class ReplicaClient implements ModelClient {
  /** The replicas' base URLs joined by commas, as verifiers writes `base_url` in metadata. */
  readonly baseUrl: string;
  private turn = 0;

  constructor(readonly replicas: readonly ModelClient[]) {
    if (replicas.length === 0) throw new TypeError("ReplicaClient needs at least one client");
    this.baseUrl = replicas.map((replica) => replica.baseUrl).join(",");
  }

  /** The next replica, round-robin. */
  next(): ModelClient {
    const replica = this.replicas[this.turn % this.replicas.length]!;
    this.turn = (this.turn + 1) % this.replicas.length;
    return replica;
  }

  /** Sends the request to the next replica. */
  chat(request: ChatRequest, options?: ChatCallOptions): Promise<ModelResponse> {
    return this.next().chat(request, options);
  }

  /** Checks every replica that can be checked. */
  async preflight(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => replica.preflight?.()));
  }

  /** Closes every replica that can be closed. */
  async close(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => replica.close?.()));
  }
}

/**
 * One client per replica of a resolved model, keys read up front so a missing one fails before any call.
 *
 * @example
 * const client = createReplicaClient(resolveModel({ model: "qwen3", registry }));
 * const response = await client.next().chat({ model: "Qwen/Qwen3-0.6B", messages, sampling: {} });
 */
export function createReplicaClient(resolved: ResolvedModel, settings: ClientSettings = {}): ReplicaClient {
  return new ReplicaClient(resolved.endpoints.map((endpoint) => clientForEndpoint(endpoint, settings)));
}
