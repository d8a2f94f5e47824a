/**
 * The model clients a worker's rollouts call, one per distinct endpoint (base URL, key variable,
 * headers), shared by the requests that name it so connections are reused across rollouts. Requests
 * may name any endpoint, so the cache is bounded: past `max` endpoints, the least recently used one
 * that no rollout is using is closed.
 */
import { OpenAIModelClient } from "@vf-rl/core";

/** An endpoint as a request names it. The key is read from the server's own environment. */
export interface EndpointConfig {
  baseUrl: string;
  /** The variable holding the API key; the key is "EMPTY" when it is unset or null. */
  apiKeyVar: string | null;
  headers: Record<string, string>;
  /** Retries after the first attempt on 429, 5xx and dropped connections (default the client's). */
  maxRetries?: number;
  /** Whole-request timeout in seconds (default the client's). */
  timeoutSeconds?: number;
}

interface Entry {
  client: OpenAIModelClient;
  users: number;
}

/** A lease on a shared client; release it when the request is done. */
export interface ClientLease {
  client: OpenAIModelClient;
  release(): void;
}

export class ModelClients {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly max = 32) {}

  /** The client for `config`, created on first use. */
  acquire(config: EndpointConfig): ClientLease {
    const key = JSON.stringify([
      config.baseUrl,
      config.apiKeyVar,
      config.headers,
      config.maxRetries,
      config.timeoutSeconds,
    ]);
    let entry = this.entries.get(key);
    if (entry) {
      // Map order is recency order: move it to the end.
      this.entries.delete(key);
    } else {
      const apiKey = (config.apiKeyVar ? process.env[config.apiKeyVar] : undefined) || "EMPTY";
      entry = {
        client: new OpenAIModelClient({
          baseUrl: config.baseUrl,
          apiKey,
          headers: config.headers,
          ...(config.apiKeyVar ? { apiKeyVar: config.apiKeyVar } : {}),
          ...(config.maxRetries !== undefined ? { maxRetries: config.maxRetries } : {}),
          ...(config.timeoutSeconds !== undefined ? { timeoutSeconds: config.timeoutSeconds } : {}),
        }),
        users: 0,
      };
      this.evictIdle();
    }
    this.entries.set(key, entry);
    entry.users += 1;
    const held = entry;
    let released = false;
    return {
      client: held.client,
      release: () => {
        if (released) return;
        released = true;
        held.users -= 1;
      },
    };
  }

  /** Closes every client. */
  async close(): Promise<void> {
    const clients = [...this.entries.values()].map((entry) => entry.client);
    this.entries.clear();
    await Promise.all(clients.map((client) => client.close()));
  }

  private evictIdle(): void {
    if (this.entries.size < this.max) return;
    for (const [key, entry] of this.entries) {
      if (entry.users > 0) continue;
      this.entries.delete(key);
      void entry.client.close();
      if (this.entries.size < this.max) return;
    }
  }
}
