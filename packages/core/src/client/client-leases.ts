/**
 * The model clients a worker's rollouts call, one per distinct endpoint (base URL, key variable,
 * headers), shared by the requests that name it so connections are reused across rollouts. Requests
 * may name any endpoint, so the cache is bounded: past `max` endpoints, the least recently used one
 * that no rollout is using is closed.
 *
 * Requests also name the variable holding the endpoint's key, and anyone who reaches the server can
 * send one, naming a URL of their own: so only the variables the operator allowed (`keyVars`, vf env
 * serve's `--key-var`) are read. Any other is sent as "EMPTY", which a local vLLM without a key
 * takes; the log says so once per variable that is set here, and when the endpoint rejects the
 * key, the run's error says how to allow it (for set and unset variables alike, so a client cannot
 * learn which are set).
 */
import { OpenAIModelClient } from "@vf-rl/core";

/** An endpoint as a request names it. The key is read from the server's own environment. */
export interface EndpointConfig {
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
  client: OpenAIModelClient;
  users: number;
}

/** A lease on a shared client; release it when the request is done. */
export interface ClientLease {
  client: OpenAIModelClient;
  release(): void;
}

/** What a worker's clients may use. */
export interface ModelClientsOptions {
  /** The variables whose values may be sent as keys; default none. */
  keyVars?: readonly string[];
  /** One line to the server's log: a run named a variable, set here, that is not sent. */
  log?: (line: string) => void;
  /** Clients kept open at most; default 32. */
  max?: number;
}

/** Variables refused that are named in the log; past these, one more line says the rest are not. */
const REFUSALS_LOGGED = 100;

export class ModelClients {
  private readonly entries = new Map<string, Entry>();
  private readonly keyVars: ReadonlySet<string>;
  private readonly refused = new Set<string>();
  private readonly max: number;
  private readonly log: (line: string) => void;

  constructor(options: ModelClientsOptions = {}) {
    this.keyVars = new Set(options.keyVars ?? []);
    this.max = options.max ?? 32;
    this.log = options.log ?? (() => {});
  }

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
      const { apiKey, apiKeyVar } = this.key(config);
      entry = {
        client: new OpenAIModelClient({
          baseUrl: config.baseUrl,
          apiKey,
          headers: config.headers,
          ...(apiKeyVar ? { apiKeyVar } : {}),
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

  /**
   * The key to send for `config` and how messages name where it came from: the variable's value
   * when the operator allowed it, else "EMPTY" and a name that says the variable was not sent.
   */
  private key(config: EndpointConfig): { apiKey: string; apiKeyVar: string | undefined } {
    const name = config.apiKeyVar;
    if (!name) return { apiKey: "EMPTY", apiKeyVar: undefined };
    if (this.keyVars.has(name)) return { apiKey: process.env[name] || "EMPTY", apiKeyVar: name };
    // An unset variable would have sent "EMPTY" anyway (a local vLLM's usual case): nothing to report.
    if (process.env[name]) this.logRefusal(name, config.baseUrl);
    return {
      apiKey: "EMPTY",
      apiKeyVar: `${name}, which this env server does not send (start it with --key-var ${name} to allow it)`,
    };
  }

  private logRefusal(name: string, baseUrl: string): void {
    if (this.refused.has(name) || this.refused.size > REFUSALS_LOGGED) return;
    this.refused.add(name);
    if (this.refused.size > REFUSALS_LOGGED) {
      this.log(
        `runs named more than ${REFUSALS_LOGGED} key variables this server does not send; no more are logged`,
      );
      return;
    }
    // Both come from the client: quoted, so they cannot forge log lines.
    this.log(
      `a run named the key variable ${JSON.stringify(name)} for ${JSON.stringify(baseUrl)}: its value was not sent (only --key-var variables are; the key sent was "EMPTY"): to send it, restart vf env serve with --key-var ${JSON.stringify(name)}`,
    );
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
