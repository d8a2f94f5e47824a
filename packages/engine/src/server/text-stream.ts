/**
 * The text of one streamed choice, released token by token as it becomes final. Bytes that could
 * still turn out to be the start of a stop string are held back (a stop string is never streamed,
 * as it is cut from the text), as are incomplete UTF-8 characters; with tools, streaming of content
 * stops at the first `<tool_call>`, and what follows is parsed into tool calls at the end.
 */
import { endsWithBytes } from "../sampling/stop-bytes.ts";
import { type ParsedToolCall, parseToolCalls } from "../tokenizer/chat-template.ts";

const TOOL_CALL_OPEN = "<tool_call>";

/** The end of a streamed choice: the last content to send, and the tool calls it made. */
export interface StreamEnd {
  content: string;
  toolCalls: ParsedToolCall[];
}

/** Incremental text of one choice. */
export class TextStream {
  private readonly bytes: number[] = [];
  private readonly decoder = new TextDecoder();
  private readonly stops: Uint8Array[];
  private readonly toolOpen: Uint8Array | null;
  private sent = 0; // bytes released so far
  private text = ""; // text released so far
  private frozenAt = -1; // byte index of the first <tool_call>, once seen

  /** `stop`: the request's stop strings; `tools`: whether tool calls are parsed from the text. */
  constructor(stop: readonly string[], tools: boolean) {
    const encoder = new TextEncoder();
    this.stops = stop.map((s) => encoder.encode(s));
    this.toolOpen = tools ? encoder.encode(TOOL_CALL_OPEN) : null;
  }

  /** Adds a sampled token; returns the text it releases (often "", e.g. for a held-back byte). */
  push(token: number): string {
    if (token >= 256) return ""; // special tokens carry no text
    this.bytes.push(token);
    if (this.toolOpen && this.frozenAt < 0 && endsWithBytes(this.bytes, this.toolOpen)) {
      this.frozenAt = this.bytes.length - this.toolOpen.length;
    }
    const limit = this.frozenAt >= 0 ? this.frozenAt : this.bytes.length - this.heldBack();
    return this.release(limit, true);
  }

  /**
   * Ends the choice: `cut` is the length in bytes of the stop string that ended it (0 for none).
   * Returns the content still to send and, with tools, the parsed tool calls.
   */
  finish(cut: number): StreamEnd {
    const end = Math.max(this.bytes.length - cut, this.sent);
    const sentText = this.text;
    const tail = this.release(end, false);
    if (!this.toolOpen) return { content: tail, toolCalls: [] };
    // what was sent precedes every <tool_call> (streaming froze there), so it starts the content
    const parsed = parseToolCalls(sentText + tail);
    if (!parsed.content.startsWith(sentText)) return { content: tail, toolCalls: [] };
    return { content: parsed.content.slice(sentText.length), toolCalls: parsed.toolCalls };
  }

  /**
   * Bytes at the end that are a prefix of a stop string (the whole of it too: the sequence ends
   * there and `finish` cuts it) or a proper prefix of `<tool_call>`.
   */
  private heldBack(): number {
    let held = 0;
    const candidates = this.toolOpen ? [...this.stops, this.toolOpen] : this.stops;
    for (const stop of candidates) {
      const longest = stop === this.toolOpen ? stop.length - 1 : stop.length;
      for (let k = Math.min(longest, this.bytes.length); k > held; k--) {
        if (endsWithBytes(this.bytes, stop.subarray(0, k))) {
          held = k;
          break;
        }
      }
    }
    return held;
  }

  private release(limit: number, stream: boolean): string {
    if (limit <= this.sent && stream) return "";
    const chunk = Uint8Array.from(this.bytes.slice(this.sent, limit));
    this.sent = Math.max(limit, this.sent);
    const text = this.decoder.decode(chunk, { stream });
    this.text += text;
    return text;
  }
}
