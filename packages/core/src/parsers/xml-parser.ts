/**
 * Structured answers in XML-like tags (`<reasoning>...</reasoning><answer>...</answer>`): parsing,
 * a format description for prompts, rendering, and a format score. Not an XML parser: tags are
 * matched by pattern, so unbalanced or nested markup is tolerated rather than rejected.
 */

import { AuthoringError } from "../errors.ts";
import { assistantMessages, contentText, type Messages } from "../messages/message.ts";
import { Parser, type ParserOptions } from "./parser.ts";

/** A field: one tag name, or alternative tag names of which the first is canonical. */
export type XMLField = string | readonly string[];

/** Options of `XMLParser`. */
export interface XMLParserOptions extends ParserOptions {
  /** The field `parse` and `parseAnswer` return. Default "answer". */
  answerField?: string;
}

export interface XMLParseOptions {
  /** Trim the content of each tag. Default true. */
  strip?: boolean;
  /** Take the last occurrence of each tag instead of the first. Default false. */
  last?: boolean;
}

/** Every allowed tag name (alternatives included) → its content, or null when the tag is absent. */
export type XMLFields = Record<string, string | null>;

interface FieldSpec {
  canonical: string;
  alternatives: string[];
}

/**
 * Parses and renders tagged fields.
 *
 * @example
 * const parser = new XMLParser(["reasoning", ["code", "answer"]]);
 * parser.parseFields("<reasoning>r</reasoning><answer>42</answer>")
 * // { reasoning: "r", code: null, answer: "42" }
 * parser.format({ reasoning: "r", code: "x = 1" }) // "<reasoning>\nr\n</reasoning>\n<code>\nx = 1\n</code>"
 */
export class XMLParser extends Parser {
  readonly answerField: string;
  private readonly specs: FieldSpec[] = [];
  private readonly patterns = new Map<string, RegExp>();

  constructor(fields: readonly XMLField[], options: XMLParserOptions = {}) {
    super(options);
    this.answerField = options.answerField ?? "answer";
    for (const field of fields) {
      const alternatives = typeof field === "string" ? [field] : [...field];
      if (alternatives.length === 0)
        throw new AuthoringError(
          'an XMLParser field cannot be an empty list of tags: give each field at least one tag, e.g. ["answer"]',
        );
      for (const tag of alternatives) {
        if (typeof tag !== "string" || tag === "") {
          throw new AuthoringError(
            `XMLParser tags must be non-empty strings, got ${JSON.stringify(tag)}: name the tag, e.g. "answer"`,
          );
        }
        if (this.patterns.has(tag)) {
          throw new AuthoringError(
            `the tag "${tag}" appears twice in the XMLParser fields: name each tag once`,
          );
        }
        // Content is trimmed by the pattern itself; `strip` trims what the pattern leaves.
        this.patterns.set(
          tag,
          new RegExp(`<${escapeRegExp(tag)}>\\s*([\\s\\S]*?)\\s*</${escapeRegExp(tag)}>`, "g"),
        );
      }
      this.specs.push({ canonical: alternatives[0]!, alternatives });
    }
  }

  /** The canonical field names, in order. */
  fieldNames(): string[] {
    return this.specs.map((spec) => spec.canonical);
  }

  /** The content of every allowed tag in `text` (null when absent). */
  parseFields(text: string, options: XMLParseOptions = {}): XMLFields {
    const { strip = true, last = false } = options;
    const fields: XMLFields = {};
    for (const [tag, pattern] of this.patterns) {
      let content: string | null = null;
      for (const match of text.matchAll(pattern)) {
        content = match[1]!;
        if (!last) break;
      }
      fields[tag] = content !== null && strip ? content.trim() : content;
    }
    return fields;
  }

  /** The last occurrence of the answer field in `text`, passed through `extract`; null when absent. */
  override parse(text: string): string | null {
    const value = this.parseFields(text, { last: true })[this.answerField];
    return value == null ? null : this.extract(value);
  }

  /** The answer field of the newest assistant message that has one; null when none has. */
  override parseAnswer(completion: Messages | string): string | null {
    if (typeof completion === "string") return this.parse(completion);
    const messages = assistantMessages(completion);
    for (let i = messages.length - 1; i >= 0; i--) {
      const value = this.parseFields(contentText(messages[i]!.content), { last: true })[this.answerField];
      if (value != null) return this.extract(value);
    }
    return null;
  }

  /** A description of the expected format, for system prompts. */
  formatString(): string {
    return this.specs
      .map(({ canonical, alternatives }) => {
        const name = alternatives.length > 1 ? `[ ${alternatives.join(" | ")} ]` : canonical;
        return `<${name}>\n...\n</${name}>`;
      })
      .join("\n");
  }

  /**
   * Renders the fields in order under their canonical tags; a value may be given under any
   * alternative name (the canonical one wins). Throws when a field has no value.
   */
  format(values: Readonly<Record<string, string>>): string {
    return this.specs
      .map(({ canonical, alternatives }) => {
        const key = [canonical, ...alternatives].find((name) => values[name] !== undefined);
        if (key === undefined) {
          throw new AuthoringError(
            `missing value for field "${canonical}" (allowed names: ${alternatives.join(", ")}): pass it to format()`,
          );
        }
        return `<${canonical}>\n${values[key]}\n</${canonical}>`;
      })
      .join("\n");
  }

  /**
   * How well the assistant messages follow the format, averaged over them (0 when there are none).
   * Per message: 0.4 × the share of fields present (only when at least one field has content),
   * 0.2 for spacing, 0.2 when it starts with a tag of the first field, and 0.2 when it ends with a
   * closing tag of the last field. The scores match verifiers' `XMLParser` format reward.
   */
  override formatScore(completion: Messages): number {
    const messages = assistantMessages(completion);
    if (messages.length === 0) return 0;
    const total = messages.reduce(
      (sum, message) => sum + this.messageFormatScore(contentText(message.content)),
      0,
    );
    return total / messages.length;
  }

  private messageFormatScore(text: string): number {
    const parsed = this.parseFields(text);
    let anyContent = false;
    let presentFields = 0;
    for (const { alternatives } of this.specs) {
      let present = false;
      for (const tag of alternatives) {
        if (parsed[tag] !== null) {
          anyContent = true;
          present = true;
        } else if (text.includes(`<${tag}>`) || text.includes(`</${tag}>`)) {
          // A stray opening or closing tag still shows the model tried the field.
          present = true;
        }
      }
      if (present) presentFields++;
    }
    const trimmed = text.trim();
    const first = this.specs[0]?.alternatives ?? [];
    const last = this.specs[this.specs.length - 1]?.alternatives ?? [];
    let score = 0;
    if (anyContent) score += 0.4 * (presentFields / this.specs.length);
    // verifiers' spacing check re-parses without trimming using the same pattern, which trims
    // anyway, so it always passes: a constant 0.2, kept so that scores agree with verifiers.
    score += 0.2;
    if (first.some((tag) => trimmed.startsWith(`<${tag}>`))) score += 0.2;
    if (last.some((tag) => trimmed.endsWith(`</${tag}>`))) score += 0.2;
    return score;
  }
}

function escapeRegExp(tag: string): string {
  return tag.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
