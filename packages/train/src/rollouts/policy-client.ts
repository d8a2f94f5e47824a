/**
 * The adapter through which environments reach the sampler (the role of rLLM's
 * RolloutEngineAsyncClient). Environments run unchanged: they call `ModelClient.chat` as they do in
 * `vf eval`. The adapter wraps the inference server's OpenAI client and, on every call:
 *
 *  - asks for the token fields training needs (`logprobs: true`, `return_token_ids: true`), so each
 *    turn's response, and then the rollout record's `trajectory[].tokens`, holds prompt_ids,
 *    completion_ids and the sampler's completion_logprobs;
 *  - gives the request a seed, so a run samples the same tokens when it is repeated or resumed:
 *    the seed mixes the group's seed, the conversation so far and how many times this group has
 *    sent that same conversation (the rollouts of a group open with the same prompt);
 *  - tags the response with the policy version the server held when the request was made, so the
 *    loop can measure how stale each turn was (`versionOf`).
 *
 * One `PolicyClient` serves a run; `forGroup` makes the per-group view handed to `generate`.
 */
import type { ModelClient } from "@vf-rl/core";
import type { ChatCallOptions, ChatRequest, ModelResponse } from "@vf-rl/core/client";

/** Options of a PolicyClient. */
export interface PolicyClientOptions {
  /** The inference server's OpenAI-compatible client. */
  inner: ModelClient;
  /** The policy version the server holds now (the loop bumps it after each weight update). */
  version: () => number;
}

/** Wraps an inference client for training; see the file comment. */
export class PolicyClient {
  private readonly versions = new WeakMap<ModelResponse, number>();

  constructor(private readonly options: PolicyClientOptions) {}

  /** The policy version the inference server holds now. */
  get version(): number {
    return this.options.version();
  }

  /** The base URL of the inference server. */
  get baseUrl(): string {
    return this.options.inner.baseUrl;
  }

  /** The client one group's rollouts use; `groupSeed` decides every token they sample. */
  forGroup(groupSeed: number): ModelClient {
    const sent = new Map<string, number>();
    return {
      baseUrl: this.options.inner.baseUrl,
      chat: async (request: ChatRequest, callOptions?: ChatCallOptions): Promise<ModelResponse> => {
        const key = conversationKey(request);
        const occurrence = sent.get(key) ?? 0;
        sent.set(key, occurrence + 1);
        const version = this.options.version();
        const response = await this.options.inner.chat(
          {
            ...request,
            sampling: {
              ...request.sampling,
              logprobs: true,
              return_token_ids: true,
              seed: mixSeed(groupSeed, hashString(key), occurrence),
            },
          },
          callOptions,
        );
        this.versions.set(response, version);
        return response;
      },
    };
  }

  /** The policy version a response was sampled from; undefined for responses of other clients. */
  versionOf(response: ModelResponse): number | undefined {
    return this.versions.get(response);
  }
}

/** Mixes integers into a non-negative 31-bit seed (the range every server accepts). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193);
    h = Math.imul(h ^ Math.floor(part / 2 ** 32), 0x01000193);
    h ^= h >>> 15;
  }
  return (h >>> 0) & 0x7fffffff;
}

/**
 * The conversation of a request, as text: equal conversations give equal keys. Tool-call ids are
 * labels the server drew at random (the engine's `call_<hex>`, vLLM's uuids), so the key numbers
 * them by first appearance instead: with the ids themselves, every turn after a tool call drew a
 * new seed on each run, and a repeated or resumed run sampled other tokens there.
 */
function conversationKey(request: ChatRequest): string {
  const labels = new Map<string, number>();
  const label = (id: string): number => {
    if (!labels.has(id)) labels.set(id, labels.size);
    return labels.get(id)!;
  };
  const messages = request.messages.map((message) => {
    if (message.role === "tool") return { ...message, tool_call_id: label(message.tool_call_id) };
    if (message.role !== "assistant" || !message.tool_calls) return message;
    return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: label(call.id) })) };
  });
  return JSON.stringify([messages, request.tools ?? []]);
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
