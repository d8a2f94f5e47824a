/**
 * A model client answered from a response cache (response-cache.ts): wraps any client of one API,
 * or none when the run only replays (no key, no server). Applied where vf's clients are made
 * (`vf eval`'s connections, `ClientLeases`), so an agent's calls through the interception server,
 * which forward through those clients, are cached like an environment's own.
 */

import { cacheKey } from "./cache-key.ts";
import type { ApiClientType } from "./client-type.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import type { ResponseCache } from "./response-cache.ts";

/** Options of `CachedModelClient`. */
export interface CachedModelClientOptions {
  cache: ResponseCache;
  /** The API the wrapped client speaks (part of every key). */
  type: ApiClientType;
  /** The client that reaches the model; null: replay only. */
  inner: ModelClient | null;
  /** Its base URL when there is no inner client (messages and metadata only). */
  baseUrl?: string;
}

/** See the file comment. */
export class CachedModelClient implements ModelClient {
  readonly baseUrl: string;
  private readonly cache: ResponseCache;
  private readonly type: ApiClientType;
  private readonly inner: ModelClient | null;

  constructor(options: CachedModelClientOptions) {
    this.cache = options.cache;
    this.type = options.type;
    this.inner = options.inner;
    this.baseUrl = options.inner?.baseUrl ?? options.baseUrl ?? "";
  }

  async chat(request: ChatRequest, options?: ChatCallOptions): Promise<ModelResponse> {
    const slot = this.cache.slot(cacheKey(this.type, request));
    if (this.cache.mode !== "refresh") {
      const recorded = await this.cache.read(slot);
      if (recorded) return recorded;
    }
    if (this.cache.mode === "replay" || this.inner === null) throw this.cache.miss(slot);
    let response: ModelResponse;
    try {
      response = await this.inner.chat(request, options);
    } catch (error) {
      this.cache.release(slot);
      throw error;
    }
    await this.cache.write(slot, response);
    return response;
  }

  /** A replay reaches no endpoint, so there is nothing to check. */
  async preflight(): Promise<void> {
    if (this.cache.mode !== "replay") await this.inner?.preflight?.();
  }

  async close(): Promise<void> {
    await this.inner?.close?.();
  }
}
