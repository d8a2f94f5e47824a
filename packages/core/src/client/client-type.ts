/**
 * The model APIs vf speaks, named as verifiers names them: `--api-client-type`, `type` in
 * configs/endpoints.toml and `api_client_type` in eval configs all take these names.
 */
import { z } from "zod";

/**
 * - `openai_chat_completions` (default): POST /chat/completions, the API of OpenAI, OpenRouter, vLLM,
 *   SGLang, llama.cpp, Ollama and vf's engine.
 * - `openai_completions`: POST /completions, raw text completion; the conversation is rendered as
 *   text (see text-prompt.ts) and the model cannot call tools.
 * - `openai_responses`: POST /responses, OpenAI's Responses API.
 * - `anthropic_messages`: POST /v1/messages, Anthropic's Messages API.
 */
export const ApiClientType = z.enum([
  "openai_chat_completions",
  "openai_completions",
  "openai_responses",
  "anthropic_messages",
]);
export type ApiClientType = z.infer<typeof ApiClientType>;

/** The client type used when none is named. */
export const DEFAULT_CLIENT_TYPE: ApiClientType = "openai_chat_completions";

// verifiers' token-in/token-out clients for vLLM and NeMo-RL: vf reads the same token ids from the
// chat API's vLLM fields instead.
const NOT_SPOKEN = ["openai_chat_completions_token", "renderer", "nemorl_chat_completions"];

/**
 * Reads a client type, or says what is wrong with it in words a message can end with.
 *
 * @example parseClientType("anthropic_messages") // { ok: true, type: "anthropic_messages" }
 */
export function parseClientType(
  value: string,
): { ok: true; type: ApiClientType } | { ok: false; problem: string } {
  const parsed = ApiClientType.safeParse(value);
  if (parsed.success) return { ok: true, type: parsed.data };
  const choices = ApiClientType.options.join(", ");
  if (NOT_SPOKEN.includes(value)) {
    return {
      ok: false,
      problem: `client type "${value}" is not supported by vf (token ids come from the chat API's vLLM fields): use one of ${choices}`,
    };
  }
  return { ok: false, problem: `"${value}" is not a client type: use one of ${choices}` };
}
