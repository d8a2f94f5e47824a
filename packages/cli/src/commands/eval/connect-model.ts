/**
 * Turns the model flags of one evaluation into clients: an engine checkpoint folder given as -m
 * (served here), an endpoint_id of configs/endpoints.toml, or a literal model id at -b or at the
 * provider's URL (-p; default OpenAI's API with OPENAI_API_KEY), or, with no model at all, the
 * built-in local model. The API each endpoint speaks comes from --api-client-type, else the
 * provider, else the registry row, else chat completions. Each endpoint is checked before the run
 * starts, so an unreachable server or a rejected key stops the command with one line instead of
 * failing every rollout. The command's evaluations that reach the same model the same way (a sweep
 * over temperatures, several environments on one endpoint) share one connection (ModelPool), so
 * the built-in model is started once and each endpoint is checked once.
 *
 * With `--cache DIR` the connection's calls are answered from a folder of recorded calls (core's
 * `ResponseCache`). Every client of the connection is wrapped, so an agent's calls through the
 * interception server, which forward through these clients, are recorded and replayed too. A
 * replay reaches no endpoint: its clients are made without keys, and nothing is checked before the run.
 */
import { existsSync, statSync } from "node:fs";
import type { ModelClient } from "@vf-rl/core";
import {
  CachedModelClient,
  createReplicaClient,
  type EndpointAddress,
  type EndpointRegistry,
  loadEndpointRegistry,
  type ResolvedModel,
  ResponseCache,
  resolveRoute,
} from "@vf-rl/core/client";
import { UserError } from "@vf-rl/core/errors";
import { findPackagePath } from "@vf-rl/core/loading";
import { runWeights } from "@vf-rl/train/run-weights";
import { UsageError } from "../../cli-errors.ts";
import { isHttpUrl } from "../../flag-values.ts";
import { startBuiltinModel, startLocalModel } from "./builtin-model.ts";
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
  /** The response cache its clients answer from (--cache), if any. */
  cache?: ResponseCache;
}

const DEFAULT_ENDPOINTS = "configs/endpoints.toml";

export async function connectModel(spec: EvalSpec): Promise<ConnectedModel> {
  const cache = responseCache(spec);
  const connected = await connectUncached(spec, cache);
  return cache && !connected.cache ? cachedConnection(connected, cache) : connected;
}

/** The connection `connectModel` wraps in the cache; a replay of an endpoint's calls is made here whole. */
async function connectUncached(spec: EvalSpec, cache: ResponseCache | undefined): Promise<ConnectedModel> {
  const local = localModel(spec, spec.provider === "builtin");
  if (local !== null) return local;
  if (spec.model === undefined && spec.provider !== undefined) {
    throw new UsageError(`-p ${spec.provider} needs the model to call: add -m <model id>`);
  }
  const path = spec.endpointsPath ?? DEFAULT_ENDPOINTS;
  const registry =
    spec.endpointsPath !== undefined || existsSync(path) ? await loadEndpointRegistry(path) : undefined;
  const resolved = resolveSpecModel(spec, registry);
  for (const { baseUrl } of resolved.endpoints) {
    // fetch would fail every rollout with "Invalid URL"; -b and a config's base_url are checked as parsed.
    if (!isHttpUrl(baseUrl)) {
      const from = registry?.get(spec.model ?? "")
        ? `url of "${spec.model}" in ${registry.path}`
        : "OPENAI_BASE_URL";
      throw new UsageError(
        `the model's base URL "${baseUrl}" (${from}) is not an http:// or https:// URL: fix it, e.g. http://127.0.0.1:8000/v1`,
      );
    }
  }
  // A replay needs no key and no server: nothing is read, made or checked.
  if (cache?.mode === "replay") return replayConnection(resolved.model, resolved.endpoints, cache);
  const replicas = createReplicaClient(resolved);
  try {
    await replicas.preflight();
  } catch (error) {
    await replicas.close();
    throw error;
  }
  return {
    model: resolved.model,
    clients: [...replicas.replicas],
    baseUrl: replicas.baseUrl,
    endpoints: resolved.endpoints,
    close: () => replicas.close(),
  };
}

/** The model id and endpoints a spec names (no local model): core's one route (`resolveRoute`). */
export function resolveSpecModel(
  spec: EvalSpec,
  registry?: EndpointRegistry,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedModel {
  return resolveRoute(
    {
      model: spec.model,
      provider: spec.provider,
      baseUrl: spec.baseUrl,
      apiKeyVar: spec.apiKeyVar,
      type: spec.type,
      headers: spec.headers,
      registry,
    },
    env,
  );
}

// What connectModel reads: the keys of a spec that say how its model is reached. Evaluations
// equal in these share a connection, whatever else (environment, sampling, run settings) differs.
const CONNECTION_KEYS = [
  "model",
  "provider",
  "baseUrl",
  "apiKeyVar",
  "type",
  "endpointsPath",
  "headers",
  "cache",
  "cacheMode",
] as const satisfies ReadonlyArray<keyof EvalSpec>;

/** The model connections of one `vf eval` command, one per way of reaching a model. */
export class ModelPool {
  private readonly connections = new Map<string, Promise<ConnectedModel>>();

  /** The connection for `spec`'s model, made on first use. */
  connect(spec: EvalSpec): Promise<ConnectedModel> {
    const key = JSON.stringify(CONNECTION_KEYS.map((field) => spec[field] ?? null));
    let connection = this.connections.get(key);
    if (!connection) {
      connection = connectModel(spec);
      this.connections.set(key, connection);
    }
    return connection;
  }

  /** Closes every connection made (a failed one has nothing to close). */
  async close(): Promise<void> {
    const settled = await Promise.allSettled(this.connections.values());
    this.connections.clear();
    await Promise.all(settled.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
  }
}

/**
 * The model served in this process, when the flags ask for one: none given, -p builtin, or -m with
 * a folder vf train or vf sft wrote (weights, a checkpoint, or a run folder: its last weights).
 */
function localModel(spec: EvalSpec, builtin: boolean): Promise<ConnectedModel> | null {
  const type = spec.type;
  const folder = spec.model === undefined ? undefined : findPackagePath(spec.model);
  const weights = folder === undefined ? undefined : runWeights(folder);
  if (spec.model !== undefined && folder !== undefined && weights !== undefined) {
    if (spec.baseUrl !== undefined) {
      throw new UsageError(
        `-m ${spec.model} is a checkpoint folder, served here: drop -b ${spec.baseUrl}, or give -m the model id that server serves`,
      );
    }
    // named by the folder that says which step, so a saved run records what was evaluated (as
    // given, when the folder is inside an installed package: the install's path says nothing)
    const modelName = folder === spec.model ? weights.name : spec.model + weights.name.slice(folder.length);
    return startLocalModel({ checkpoint: weights.dir, modelName, ...(type ? { type } : {}) });
  }
  if (builtin) {
    if (spec.model !== undefined || spec.baseUrl !== undefined) {
      throw new UsageError(
        "-p builtin serves vf's built-in model: drop -m and -b, or give -m an engine checkpoint folder",
      );
    }
    return startBuiltinModel(type);
  }
  if (spec.model === undefined && spec.baseUrl === undefined && spec.provider === undefined) {
    return startBuiltinModel(type);
  }
  if (
    spec.model !== undefined &&
    spec.baseUrl === undefined &&
    spec.provider === undefined &&
    existsSync(spec.model) &&
    statSync(spec.model).isDirectory()
  ) {
    throw new UsageError(
      `-m ${spec.model} is a folder but holds no engine weights (config.json and model.safetensors, or a run or checkpoint of vf train or vf sft): give a folder vf train or vf sft printed, or a model id`,
    );
  }
  return null;
}

/** The cache a spec names, or none. */
export function responseCache(spec: EvalSpec): ResponseCache | undefined {
  if (spec.cache === undefined) return undefined;
  return new ResponseCache({ dir: spec.cache, mode: spec.cacheMode ?? "record" });
}

/** `connected` with every client answered from `cache` first. */
export function cachedConnection(connected: ConnectedModel, cache: ResponseCache): ConnectedModel {
  return {
    ...connected,
    clients: connected.clients.map(
      (client, i) =>
        new CachedModelClient({
          cache,
          type: connected.endpoints[i]?.type ?? "openai_chat_completions",
          inner: client,
        }),
    ),
    cache,
  };
}

/** A connection for a replay: clients that answer from `cache` alone, one per endpoint. */
export function replayConnection(
  model: string,
  endpoints: EndpointAddress[],
  cache: ResponseCache,
): ConnectedModel {
  return {
    model,
    clients: endpoints.map(
      (endpoint) =>
        new CachedModelClient({ cache, type: endpoint.type, inner: null, baseUrl: endpoint.baseUrl }),
    ),
    baseUrl: endpoints.map((endpoint) => endpoint.baseUrl).join(","),
    endpoints,
    cache,
    close: async () => {},
  };
}

/** One line on what a run did with its cache, for the summary. */
export function cacheLine(cache: ResponseCache): string {
  const { hits, stored } = cache.stats;
  return `cache ${cache.dir} (${cache.mode}): ${hits} call${hits === 1 ? "" : "s"} answered from it, ${stored} recorded`;
}

/**
 * A replay whose calls were not all recorded, though the run went on (an agent's failed call is
 * its harness's to handle, so it does not stop the run): the first miss's line, and how many more.
 */
export class ReplayIncompleteError extends UserError {}

/** The error to fail a finished run with when its replay missed calls, or null. */
export function replayFailure(cache: ResponseCache): ReplayIncompleteError | null {
  const [first, ...more] = cache.stats.misses;
  if (!first) return null;
  const others =
    more.length > 0 ? ` (and ${more.length} more call${more.length === 1 ? "" : "s"} not recorded)` : "";
  return new ReplayIncompleteError(`${first.message}${others}`, { cause: first });
}
