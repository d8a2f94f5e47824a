/**
 * `--cache DIR`: a model connection whose calls are answered from a folder of recorded calls
 * (core's `ResponseCache`). Every client of the connection is wrapped, so an agent's calls through
 * the interception server, which forward through these clients, are recorded and replayed too. A
 * replay reaches no endpoint: its clients are made without keys, and nothing is checked before the run.
 */
import type { EndpointAddress } from "@vf-rl/core/client";
import { CachedModelClient, ResponseCache } from "@vf-rl/core/client";
import { UserError } from "@vf-rl/core/errors";
import type { ConnectedModel } from "./connect-model.ts";
import type { EvalSpec } from "./eval-spec.ts";

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
