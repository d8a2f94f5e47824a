/**
 * The `fetch` vf hands to the openai package: a thin adapter over undici's `request` on one
 * keep-alive connection pool per endpoint. WHATWG fetch costs about five times more CPU per call
 * than `request` (measured against the scripted server at 512 concurrent calls), and the CLI
 * benchmark runs thousands of calls a second on two cores. It implements only what the openai
 * package reads from a response: ok, status, url, headers, body, text() and json().
 */
import { type Agent, request } from "undici";

/** The subset of `Response` the openai package uses for non-streaming calls. */
interface PooledResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly url: string;
  readonly headers: Headers;
  readonly body: null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** A fetch over `agent`, for `new OpenAI({ fetch })`. Streaming responses are not supported. */
export function pooledFetch(agent: Agent): typeof globalThis.fetch {
  const fetchLike = async (
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<PooledResponse> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const response = await request(url, {
      method: (init.method ?? "GET") as "GET",
      headers: init.headers as Iterable<[string, string]>,
      body: init.body as string | undefined,
      signal: init.signal ?? undefined,
      dispatcher: agent,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    const status = response.statusCode;
    return {
      ok: status >= 200 && status < 300,
      status,
      url,
      headers,
      body: null,
      text: () => response.body.text(),
      json: () => response.body.json(),
    };
  };
  return fetchLike as unknown as typeof globalThis.fetch;
}
