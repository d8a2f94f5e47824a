/**
 * Model clients for endpoints that requests name (the env server's runs, the interception server's
 * agents), one per distinct endpoint (API, base URL, key variable, headers), shared by the requests
 * that name it so connections are reused across rollouts. Requests may name any endpoint, so the
 * cache is bounded: past `max` endpoints, the least recently used one that no request holds is closed.
 *
 * Requests also name the variable holding the endpoint's key, and whoever sends one may name a URL
 * of their own: so only the variables the operator allowed (`keyVars`) are read. Any other is sent
 * as "EMPTY", which a local vLLM without a key takes; the log says so once per variable that is set
 * here, and when the endpoint rejects the key, the error says how to allow it (for set and unset
 * variables alike, so a client cannot learn which are set).
 */
import { CachedModelClient } from "./cached-model-client.ts";
import type { ApiClientType } from "./client-type.ts";
import { createModelClient, type HttpModelClient } from "./create-model-client.ts";
import { NO_API_KEY } from "./resolve-model.ts";
import type { ResponseCache } from "./response-cache.ts";

/** An endpoint as a request names it. The key is read from this process's environment. */
export interface EndpointConfig {
  /** The API it speaks; default openai_chat_completions. */
  type?: ApiClientType;
  baseUrl: string;
  /** The variable holding the API key; the key is "EMPTY" when it is unset, null or not allowed. */
  apiKeyVar: string | null;
  headers: Record<string, string>;
  /** Retries after the first attempt on 429, 5xx and dropped connections (default the client's). */
  maxRetries?: number;
  /** Whole-request timeout in seconds (default the client's). */
  timeoutSeconds?: number;
}

interface Entry {
  client: HttpModelClient;
  users: number;
}

/** A lease on a shared client; release it when the request is done. */
export interface ClientLease {
  client: HttpModelClient;
  release(): void;
}

/** What the leased clients may use. */
export interface ClientLeasesOptions {
  /** The variables whose values may be sent as keys; default none. */
  keyVars?: readonly string[];
  /** One line to the host's log: a request named a variable, set here, that is not sent. */
  log?: (line: string) => void;
  /**
   * How errors name a variable that was not sent, with how the host allows it; default
   * `X, which this server does not send`. (An endpoint's key error says "check the key in ...".)
   */
  refusedKey?: (name: string) => string;
  /** The log line for a request that named a variable, set here, that is not sent. */
  refusalLine?: (name: string, baseUrl: string) => string;
  /** Clients kept open at most; default 32. */
  max?: number;
  /** Every leased client answers from this cache first (`vf eval --cache`); default none. */
  cache?: ResponseCache;
}

/** Variables refused that are named in the log; past these, one more line says the rest are not. */
const REFUSALS_LOGGED = 100;

/** Leases shared clients of the endpoints requests name; see the file comment. */
export class ClientLeases {
  private readonly entries = new Map<string, Entry>();
  private readonly keyVars: ReadonlySet<string>;
  private readonly refused = new Set<string>();
  private readonly max: number;
  private readonly log: (line: string) => void;
  private readonly refusedKey: (name: string) => string;
  private readonly refusalLine: (name: string, baseUrl: string) => string;
  private readonly cache: ResponseCache | undefined;

  constructor(options: ClientLeasesOptions = {}) {
    this.keyVars = new Set(options.keyVars ?? []);
    this.max = options.max ?? 32;
    this.cache = options.cache;
    this.log = options.log ?? (() => {});
    this.refusedKey = options.refusedKey ?? ((name) => `${name}, which this server does not send`);
    this.refusalLine =
      options.refusalLine ??
      ((name, baseUrl) =>
        `a request named the key variable ${JSON.stringify(name)} for ${JSON.stringify(baseUrl)}: its value was not sent (the key sent was "EMPTY")`);
  }

  /** The client for `config`, created on first use. */
  acquire(config: EndpointConfig): ClientLease {
    const type = config.type ?? "openai_chat_completions";
    const key = JSON.stringify([
      type,
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
      const { apiKey, apiKeyVar } = this.key(config);
      const client = createModelClient({
        type,
        baseUrl: config.baseUrl,
        apiKey,
        headers: config.headers,
        ...(apiKeyVar ? { apiKeyVar } : {}),
        ...(config.maxRetries !== undefined ? { maxRetries: config.maxRetries } : {}),
        ...(config.timeoutSeconds !== undefined ? { timeoutSeconds: config.timeoutSeconds } : {}),
      });
      entry = {
        client: this.cache ? new CachedModelClient({ cache: this.cache, type, inner: client }) : client,
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

  /**
   * The key to send for `config` and how messages name where it came from: the variable's value
   * when the operator allowed it, else "EMPTY" and a name that says the variable was not sent.
   */
  private key(config: EndpointConfig): { apiKey: string; apiKeyVar: string | undefined } {
    const name = config.apiKeyVar;
    if (!name) return { apiKey: NO_API_KEY, apiKeyVar: undefined };
    if (this.keyVars.has(name)) return { apiKey: process.env[name] || NO_API_KEY, apiKeyVar: name };
    // An unset variable would have sent "EMPTY" anyway (a local vLLM's usual case): nothing to report.
    if (process.env[name]) this.logRefusal(name, config.baseUrl);
    return {
      apiKey: NO_API_KEY,
      apiKeyVar: this.refusedKey(name),
    };
  }

  private logRefusal(name: string, baseUrl: string): void {
    if (this.refused.has(name) || this.refused.size > REFUSALS_LOGGED) return;
    this.refused.add(name);
    if (this.refused.size > REFUSALS_LOGGED) {
      this.log(
        `requests named more than ${REFUSALS_LOGGED} key variables this server does not send; no more are logged`,
      );
      return;
    }
    // Both come from the client: the line quotes them, so they cannot forge log lines.
    this.log(this.refusalLine(name, baseUrl));
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
