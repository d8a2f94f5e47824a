/** Parsers pull answers out of completions and score their format; extractors are plain functions. */
export { type BoxedAnswerOptions, extractBoxedAnswer } from "./boxed-answer.ts";
export { extractHashAnswer } from "./hash-answer.ts";
export { MaybeThinkParser } from "./maybe-think-parser.ts";
export { type ExtractFn, Parser, type ParserOptions } from "./parser.ts";
export { ThinkParser, textAfterThink } from "./think-parser.ts";
export {
  type XMLField,
  type XMLFields,
  type XMLParseOptions,
  XMLParser,
  type XMLParserOptions,
} from "./xml-parser.ts";
