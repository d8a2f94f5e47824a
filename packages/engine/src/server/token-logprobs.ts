/**
 * Per-token logprobs in the two shapes of the OpenAI API: chat's `logprobs.content` entries
 * (`{token, logprob, bytes, top_logprobs}`) and the legacy completions object (`tokens`,
 * `token_logprobs`, `top_logprobs`, `text_offset`). A byte token's text is its character when the
 * byte is ASCII, else `bytes:\xNN` as OpenAI writes one byte of a longer character; `bytes` is
 * always exact, and special tokens (the end-of-turn marker) are written by name with `bytes: null`.
 * Also vLLM's `prompt_logprobs`, the scores of a prompt's own tokens.
 */
import type { Scored, TokenLogprob } from "../sampling/logits-processor.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";

/** One alternative of a chat logprobs entry. */
export interface TopLogprobEntry {
  token: string;
  logprob: number;
  bytes: number[] | null;
}

/** One entry of a chat choice's `logprobs.content`. */
export interface LogprobEntry extends TopLogprobEntry {
  top_logprobs: TopLogprobEntry[];
}

/** The legacy completions logprobs object. */
export interface LegacyLogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Record<string, number>[] | null;
  text_offset: number[];
}

/** The text shown for a token id. */
export function tokenText(id: number): string {
  if (id >= 128 && id < 256) return `bytes:\\x${id.toString(16)}`;
  return tokenizer.decode([id]);
}

/** The UTF-8 bytes of a token, or null for a special token. */
export function tokenBytes(id: number): number[] | null {
  return tokenizer.isSpecial(id) ? null : [id];
}

/** Chat `logprobs.content` entries for sampled tokens, their logprobs and alternatives. */
export function logprobEntries(
  tokens: readonly number[],
  logprobs: readonly number[],
  top: readonly (readonly TokenLogprob[])[],
): LogprobEntry[] {
  return tokens.map((id, i) => ({
    token: tokenText(id),
    logprob: logprobs[i]!,
    bytes: tokenBytes(id),
    top_logprobs: (top[i] ?? []).map((t) => ({
      token: tokenText(t.token),
      logprob: t.logprob,
      bytes: tokenBytes(t.token),
    })),
  }));
}

/**
 * The legacy logprobs of a completion; `withTop` lists alternatives (`logprobs` > 0 in the request);
 * `offset` is where the completion's text starts (0 unless the prompt is echoed).
 */
export function legacyLogprobs(
  tokens: readonly number[],
  logprobs: readonly number[],
  top: readonly (readonly TokenLogprob[])[],
  withTop: boolean,
  offset = 0,
): LegacyLogprobs {
  const texts = tokens.map(tokenText);
  const textOffset: number[] = [];
  let at = offset;
  for (const text of texts) {
    textOffset.push(at);
    at += text.length;
  }
  return {
    tokens: texts,
    token_logprobs: [...logprobs],
    top_logprobs: withTop
      ? tokens.map((_, i) =>
          Object.fromEntries((top[i] ?? []).map((t) => [tokenText(t.token), t.logprob] as const)),
        )
      : null,
    text_offset: textOffset,
  };
}

/** One entry of vLLM's `prompt_logprobs`. */
export interface PromptLogprob {
  logprob: number;
  /** 1 for the most likely token at that position. */
  rank: number;
  decoded_token: string;
}

/**
 * vLLM's `prompt_logprobs` of a prompt from its scores (prompt-logprobs.ts): null for the first
 * token, which nothing precedes, then one map per position from token id (a string) to its entry:
 * the prompt's own token, and the most likely tokens there when they were asked for.
 */
export function promptLogprobs(scores: readonly Scored[]): (Record<string, PromptLogprob> | null)[] {
  return [
    null,
    ...scores.map((s) => {
      const entries: Record<string, PromptLogprob> = {};
      s.top.forEach((t, i) => {
        entries[String(t.token)] = { logprob: t.logprob, rank: i + 1, decoded_token: tokenText(t.token) };
      });
      entries[String(s.token)] = { logprob: s.logprob, rank: s.rank, decoded_token: tokenText(s.token) };
      return entries;
    }),
  ];
}
