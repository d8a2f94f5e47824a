/**
 * A raw JSON POST to an OpenAI-compatible server, for the vLLM fields the `openai` package's types
 * and core's model clients do not carry (`prompt_logprobs`, an answer without content). A server
 * that is busy or restarting (429, 5xx, a dropped connection) is asked again a few times; any other
 * answer is returned as it is, for the caller to word.
 */
import { SystemError } from "@vf-rl/core";
import { NO_API_KEY } from "@vf-rl/core/client";

/** Where a server is and what requests to it carry. */
export interface ServerAddress {
  /** Base URL ending in /v1. */
  baseUrl: string;
  /** The model name requests carry. */
  model: string;
  /** The API key ("EMPTY" for none). */
  apiKey: string;
}

/** A server's answer: its status and its body (parsed JSON, else the text). */
export interface ServerAnswer {
  status: number;
  body: unknown;
}

/** Options of `postJson`. */
export interface PostJsonOptions {
  signal?: AbortSignal | undefined;
  /** Tries in all, for busy or unreachable servers (default 3). */
  attempts?: number;
}

/** POSTs `body` (the model added) to `path` under the server's base URL. */
export async function postJson(
  server: ServerAddress,
  path: string,
  body: Record<string, unknown>,
  options: PostJsonOptions = {},
): Promise<ServerAnswer> {
  const url = `${server.baseUrl}${path}`;
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(server.apiKey !== NO_API_KEY ? { authorization: `Bearer ${server.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: server.model, ...body }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted || attempt >= attempts) {
        throw new SystemError(
          `cannot reach ${url} (${(error as Error).message}): is the server still running?`,
          { cause: error },
        );
      }
      await pause(attempt);
      continue;
    }
    const text = await response.text();
    if ((response.status === 429 || response.status >= 500) && attempt < attempts) {
      await pause(attempt);
      continue;
    }
    return { status: response.status, body: parseJson(text) };
  }
}

/** The error message of an OpenAI-shaped error body, else the body's start. */
export function answerMessage(answer: ServerAnswer): string {
  const message = (answer.body as { error?: { message?: unknown } } | null)?.error?.message;
  if (typeof message === "string") return message;
  return (typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body)).slice(0, 300);
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 250 * attempt));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: the caller shows it as it came
  }
}
