/**
 * A running OpenAI-compatible server a run uses (the policy's inference server, a distillation
 * teacher): its URL and key resolved, and the model it serves named, as `GET /models` lists it. A
 * server that does not answer, or lists no model and none was named, is one line saying what to do.
 */
import { OpenAIModelClient, UserError } from "@vf-rl/core";
import { NO_API_KEY, resolveApiKey } from "@vf-rl/core/client";

/** What to say about a server that does not answer or names no model. */
export interface ServerHints {
  /** "the inference server", "the teacher". */
  what: string;
  /** How to start it and name its URL. */
  start: string;
  /** The config key that names its model. */
  modelKey: string;
}

/** A server that answered: its base URL (no trailing slash), its key and the model to ask for. */
export interface ListedServer {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** Asks the server at `url` for its models; `model` is the one to use (default: the first listed). */
export async function listedServer(
  url: string,
  options: { model?: string | undefined; apiKeyVar?: string | undefined; hints: ServerHints },
): Promise<ListedServer> {
  const { hints } = options;
  const baseUrl = url.replace(/\/+$/, "");
  const apiKey = options.apiKeyVar ? resolveApiKey(options.apiKeyVar) : NO_API_KEY;
  const probe = new OpenAIModelClient({ baseUrl, apiKey, maxRetries: 0 });
  let listed: string[];
  try {
    listed = await probe.listModels(AbortSignal.timeout(10_000));
  } catch (error) {
    throw new UserError(
      `cannot reach ${hints.what} at ${baseUrl} (${(error as Error).message}): ${hints.start}`,
      { cause: error },
    );
  } finally {
    await probe.close();
  }
  const model = options.model ?? listed[0];
  if (model === undefined) {
    throw new UserError(`${baseUrl}/models lists no model: set ${hints.modelKey} to the name it serves`);
  }
  return { baseUrl, apiKey, model };
}
