// The parsers of packages/core/README.md (the authoring guide), as the guide shows them; guide.test.ts
// checks that each returns what the guide says.
import { extractBoxedAnswer, MaybeThinkParser, Parser, ThinkParser, XMLParser } from "@vf-rl/core";

export const xml = new XMLParser(["think", "answer"], { answerField: "answer" });
export const answerTag = xml.parseAnswer("<think>3 threes</think>\n<answer>9</answer>"); // "9"
export const shownFormat = xml.formatString(); // the format to show the model in the system prompt

export const plain = new Parser({ extract: (text) => /-?\d+(\.\d+)?/.exec(text)?.[0] ?? null });
export const firstNumber = plain.parseAnswer("It is 42, I think."); // "42"

export const think = new ThinkParser();
export const afterThink = think.parseAnswer("<think>6 times 7</think> 42"); // "42"
export const unfinished = think.parseAnswer("<think>6 times 7 is"); // "": never finished thinking

export const maybeThink = new MaybeThinkParser({ extract: extractBoxedAnswer });
export const withThinking = maybeThink.parseAnswer("<think>...</think> so \\boxed{4}"); // "4"
export const withoutThinking = maybeThink.parseAnswer("so \\boxed{4}"); // "4"
