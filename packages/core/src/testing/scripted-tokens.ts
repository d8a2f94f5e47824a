/**
 * The scripted server's stand-in for a tokenizer and chat template: prompts are rendered with a
 * ChatML-like template and tokenised byte by byte (ids 0-255), with two special tokens. It is
 * deterministic and prefix-monotonic: the prompt of turn t+1 starts with the prompt and completion
 * tokens of turn t, as a real chat template gives when the history is sent back unchanged.
 * It is not a real tokenizer; token counts are bytes, not words.
 */

/** Id of `<|im_start|>`, which opens every rendered message. */
export const IM_START = 256;
/** Id of `<|im_end|>`, which closes every rendered message and ends every completion. */
export const IM_END = 257;

const SPECIAL_TEXT: Record<number, string> = { [IM_START]: "<|im_start|>", [IM_END]: "<|im_end|>" };

/** A rendered piece: text (one token per UTF-8 byte) or the id of a special token. */
export type Segment = string | number;

/** The fields of a message the template reads; loose on purpose, as bodies come from any client. */
export interface RenderableMessage {
  role: string;
  content?: unknown;
  reasoning_content?: unknown;
  tool_calls?: unknown;
}

/** Renders the prompt of a request: tools, every message, then the assistant generation prompt. */
export function renderPrompt(messages: RenderableMessage[], tools: unknown): Segment[] {
  const segments: Segment[] = [];
  if (Array.isArray(tools) && tools.length > 0) {
    segments.push(IM_START, `tools\n${JSON.stringify(tools)}`, IM_END, "\n");
  }
  for (const message of messages) {
    segments.push(IM_START, `${message.role}\n${messageBody(message)}`, IM_END, "\n");
  }
  segments.push(IM_START, "assistant\n");
  return segments;
}

/** Renders a completion the way the prompt template renders the same message in the history. */
export function renderCompletion(message: RenderableMessage): Segment[] {
  return [messageBody(message), IM_END];
}

function messageBody(message: RenderableMessage): string {
  let body = "";
  if (typeof message.reasoning_content === "string" && message.reasoning_content !== "") {
    body += `<think>${message.reasoning_content}</think>`;
  }
  body += textOf(message.content);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls as Array<{ function?: { name?: unknown; arguments?: unknown } }>) {
      const fn = call?.function ?? {};
      body += `<tool_call>${JSON.stringify({ name: fn.name, arguments: fn.arguments })}</tool_call>`;
    }
  }
  return body;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content as Array<{ type?: unknown; text?: unknown }>) {
    if (part?.type === "text" && typeof part.text === "string") text += part.text;
    else if (part?.type === "image_url") text += "<image>";
  }
  return text;
}

/** The number of tokens of some segments, without building the ids (used for usage counts). */
export function countTokens(segments: Segment[]): number {
  let count = 0;
  for (const segment of segments) {
    count += typeof segment === "number" ? 1 : Buffer.byteLength(segment);
  }
  return count;
}

/** The token ids of some segments: UTF-8 bytes of the text, special ids as they are. */
export function tokenIds(segments: Segment[]): number[] {
  const ids: number[] = [];
  for (const segment of segments) {
    if (typeof segment === "number") ids.push(segment);
    else for (const byte of Buffer.from(segment)) ids.push(byte);
  }
  return ids;
}

/** A deterministic logprob for a sampled token, in (-1, 0): what a sampler's logprob looks like. */
export function tokenLogprob(id: number): number {
  return -((id % 17) + 1) / 20;
}

/** One entry of `choices[0].logprobs.content`, as vLLM returns it. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: [];
}

/** The `logprobs.content` entries of some completion token ids. */
export function logprobContent(ids: number[]): TokenLogprob[] {
  return ids.map((id) => {
    const special = SPECIAL_TEXT[id];
    if (special !== undefined) {
      return {
        token: special,
        logprob: tokenLogprob(id),
        bytes: [...Buffer.from(special)],
        top_logprobs: [],
      };
    }
    // Printable ASCII reads as itself; other bytes are partial UTF-8 and are named the way vLLM does.
    const token =
      id >= 32 && id < 127 ? String.fromCharCode(id) : `bytes:\\x${id.toString(16).padStart(2, "0")}`;
    return { token, logprob: tokenLogprob(id), bytes: [id], top_logprobs: [] };
  });
}
