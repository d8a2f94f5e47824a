/**
 * The byte-level tokenizer: token ids 0..255 are the bytes of UTF-8 text, and the ids after them are
 * special tokens, never produced by encoding plain text. Any text round-trips, in any language,
 * with no vocabulary file.
 */
import { EngineError } from "../errors.ts";

/** Special tokens in id order, starting at 256. */
export const SPECIAL_TOKENS = [
  "<|bos|>", // beginning of a sequence
  "<|eot|>", // end of a turn: the stop token of a chat model
  "<|pad|>", // padding, never trained
  "<|system|>",
  "<|user|>",
  "<|assistant|>",
  "<|tool|>",
] as const;
export type SpecialToken = (typeof SPECIAL_TOKENS)[number];

/** Options of `ByteTokenizer.encode`. */
export interface EncodeOptions {
  /** Turn special-token strings such as "<|eot|>" in the text into their ids (default false: bytes). */
  allowSpecial?: boolean;
}

/** Options of `ByteTokenizer.decode`. */
export interface DecodeOptions {
  /** Leave special tokens out of the text (default false: write them as "<|eot|>" etc.). */
  skipSpecial?: boolean;
}

/** Bytes plus special tokens; vocabSize = 256 + SPECIAL_TOKENS.length. */
export class ByteTokenizer {
  readonly vocabSize = 256 + SPECIAL_TOKENS.length;
  readonly bos = this.special("<|bos|>");
  /** End of turn: sampling stops here unless told otherwise. */
  readonly eot = this.special("<|eot|>");
  readonly pad = this.special("<|pad|>");
  private readonly encoder = new TextEncoder();

  /** The id of a special token. */
  special(name: SpecialToken): number {
    return 256 + SPECIAL_TOKENS.indexOf(name);
  }

  /** True for the ids of special tokens. */
  isSpecial(id: number): boolean {
    return id >= 256 && id < this.vocabSize;
  }

  /** Token ids of `text`: its UTF-8 bytes (and special tokens, with `allowSpecial`). */
  encode(text: string, options: EncodeOptions = {}): number[] {
    if (!options.allowSpecial) return Array.from(this.encoder.encode(text));
    const ids: number[] = [];
    const pattern = new RegExp(SPECIAL_TOKENS.map((s) => s.replace(/[|]/g, "\\|")).join("|"), "g");
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      ids.push(...this.encoder.encode(text.slice(last, match.index)));
      ids.push(this.special(match[0] as SpecialToken));
      last = match.index + match[0].length;
    }
    ids.push(...this.encoder.encode(text.slice(last)));
    return ids;
  }

  /** The text of token ids; bytes that are not valid UTF-8 become U+FFFD. */
  decode(ids: readonly number[], options: DecodeOptions = {}): string {
    let text = "";
    let bytes: number[] = [];
    const flush = (): void => {
      if (bytes.length > 0) text += new TextDecoder().decode(Uint8Array.from(bytes));
      bytes = [];
    };
    for (const id of ids) {
      if (Number.isInteger(id) && id >= 0 && id < 256) {
        bytes.push(id);
      } else if (this.isSpecial(id)) {
        flush();
        if (!options.skipSpecial) text += SPECIAL_TOKENS[id - 256];
      } else {
        throw new EngineError(
          `token id ${id} is not in the byte tokenizer's vocabulary of ${this.vocabSize}: ` +
            "decode only ids this model produced",
        );
      }
    }
    flush();
    return text;
  }
}

/** The tokenizer of every chat model the engine builds. */
export const tokenizer = new ByteTokenizer();
