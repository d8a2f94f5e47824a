/**
 * What identifies a model call in the response cache (response-cache.ts): everything that changes
 * the answer (the API, the model, the messages, the tools offered and the sampling, extra_body
 * included), and nothing that does not (the endpoint's URL, its key, per-request headers such as
 * X-Session-ID), so a recording made against one server replays against none.
 */
import { createHash } from "node:crypto";
import type { ApiClientType } from "./client-type.ts";
import type { ChatRequest } from "./model-client.ts";

/** The part of a call the cache is keyed on, as stored beside its answer. */
export interface CacheKey {
  type: ApiClientType;
  model: string;
  messages: ChatRequest["messages"];
  tools: NonNullable<ChatRequest["tools"]>;
  sampling: ChatRequest["sampling"];
}

/** The key of `request` sent over `type`: no tools and an empty tool list are one request. */
export function cacheKey(type: ApiClientType, request: ChatRequest): CacheKey {
  return {
    type,
    model: request.model,
    messages: request.messages,
    tools: request.tools ?? [],
    sampling: request.sampling,
  };
}

/** The SHA-256 (hex) of the key's canonical JSON: object keys sorted, undefined fields left out. */
export function cacheDigest(key: CacheKey): string {
  return createHash("sha256").update(canonicalJson(key)).digest("hex");
}

/** JSON with every object's keys in sorted order, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_name, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    return Object.fromEntries(
      Object.keys(inner)
        .sort()
        .map((name) => [name, (inner as Record<string, unknown>)[name]]),
    );
  });
}
