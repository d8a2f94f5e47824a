/** Turns an example into the messages sent to the model, as verifiers does for its datasets. */

import { AuthoringError } from "../errors.ts";
import type { Messages } from "../messages/message.ts";
import type { Example } from "./example.ts";

export interface BuildPromptOptions {
  /** Prepended as a system message (unless the prompt already starts with one). */
  systemPrompt?: string;
  /** Example turns placed between the system prompt and the question; ignored for `prompt` rows. */
  fewShot?: Messages;
}

/**
 * The prompt of an example. A `question` row becomes `[system?, ...fewShot, user(question)]`. A
 * `prompt` row keeps its messages, with the system prompt put first unless the first message
 * already is a system message; few-shot turns are not inserted into a prompt that exists.
 *
 * @example
 * buildPrompt({ exampleId: 0, question: "2+2?", answer: "4", info: {}, task: "default" }, { systemPrompt: "Be brief." })
 * // [{ role: "system", content: "Be brief." }, { role: "user", content: "2+2?" }]
 */
export function buildPrompt(example: Example, options: BuildPromptOptions = {}): Messages {
  const system: Messages = options.systemPrompt ? [{ role: "system", content: options.systemPrompt }] : [];
  if (example.prompt !== undefined) {
    const hasSystem = example.prompt[0]?.role === "system";
    return [...(hasSystem ? [] : system), ...example.prompt];
  }
  if (example.question !== undefined) {
    return [...system, ...(options.fewShot ?? []), { role: "user", content: example.question }];
  }
  throw new AuthoringError(
    `example ${example.exampleId} has neither a prompt nor a question: give it one of them`,
  );
}
