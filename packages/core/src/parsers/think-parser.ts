/**
 * For models that always write `<think>...</think>` before their answer and whose server does not
 * strip it. Do not use it with models whose chat template removes thinking (Qwen3, DeepSeek-R1):
 * every answer would parse as empty. `MaybeThinkParser` is the lenient variant.
 */
import { assistantMessages, contentText, type Messages } from "../messages/message.ts";
import { Parser } from "./parser.ts";

const OPEN = "<think>";
const CLOSE = "</think>";

/** The text after the last `</think>`, trimmed; null when the text has no `</think>`. */
export function textAfterThink(text: string): string | null {
  const close = text.lastIndexOf(CLOSE);
  return close < 0 ? null : text.slice(close + CLOSE.length).trim();
}

/**
 * Parses the text after the last `</think>` ("" when there is none), then applies `extract`.
 *
 * @example
 * new ThinkParser().parse("<think>2+2</think> 4") // "4"
 * new ThinkParser().parse("4") // ""
 */
export class ThinkParser extends Parser {
  override parse(text: string): string | null {
    // Without a closing tag the model never finished thinking, so nothing is taken as its answer.
    return this.extract(textAfterThink(text) ?? "");
  }

  /**
   * Share of assistant messages that follow `<think>...</think>answer`: starting with `<think>`,
   * exactly one opening and one closing tag, and some non-blank text after it. 0 without any
   * assistant message.
   */
  override formatScore(completion: Messages): number {
    const messages = assistantMessages(completion);
    if (messages.length === 0) return 0;
    const good = messages.filter((m) => followsThinkFormat(contentText(m.content))).length;
    return good / messages.length;
  }
}

function followsThinkFormat(text: string): boolean {
  return (
    text.trim().startsWith(OPEN) &&
    occurrences(text, OPEN) === 1 &&
    occurrences(text, CLOSE) === 1 &&
    // verifiers counts whitespace after `</think>` as an answer; a blank answer is not one here.
    (textAfterThink(text) ?? "") !== ""
  );
}

function occurrences(text: string, tag: string): number {
  return text.split(tag).length - 1;
}
