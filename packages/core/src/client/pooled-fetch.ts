/**
 * The `fetch` vf hands to the openai package: a thin adapter over undici's `request` on one
 * keep-alive connection pool per endpoint. WHATWG fetch costs about five times more CPU per call
 * than `request` (measured against the scripted server at 512 concurrent calls), and the CLI
 * benchmark runs thousands of calls a second on two cores. It implements only what the openai
 * package reads from a response: ok, status, url, headers, body, text() and json(). Flat error
 * bodies are nested the way the openai package reads them (see `nestFlatError`).
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
      ok: ok(status),
      status,
      url,
      headers,
      body: null,
      text: ok(status) ? () => response.body.text() : () => response.body.text().then(nestFlatError),
      json: () => response.body.json(),
    };
  };
  return fetchLike as unknown as typeof globalThis.fetch;
}

function ok(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * Older vLLM and SGLang send errors flat (`{ object: "error", message, ... }`); the openai package
 * reads the message only from `{ error: { message } }` and would report "400 status code (no body)",
 * losing the text that says, for one, that the prompt is over the context length.
 */
function nestFlatError(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof body !== "object" || body === null || "error" in body) return text;
  if (typeof (body as { message?: unknown }).message !== "string") return text;
  return JSON.stringify({ error: body });
}
