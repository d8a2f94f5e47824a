/**
 * How many tokens a prompt is for the built-in engine: its chat template with the tools written into
 * the system turn, as the engine's server renders a request (so `vf eval validate` counts what the
 * model would be sent), and the built-in model's context length.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contentText } from "@vf-rl/core";
import type { ValidateOptions } from "@vf-rl/core/checks";
import {
  BASE_MODEL_DIR,
  type ChatMessageInput,
  parseModelConfig,
  renderChat,
  withToolsSection,
} from "@vf-rl/engine";

/** The prompt's length in the engine's tokens, generation prompt included. */
export const enginePromptTokens: NonNullable<ValidateOptions["countPromptTokens"]> = (prompt, tools) => {
  const messages: ChatMessageInput[] = prompt.map((message) => ({
    role: message.role,
    content: contentText(message.content),
    ...(message.role === "assistant" && message.tool_calls
      ? {
          tool_calls: message.tool_calls.map((call) => ({
            type: "function" as const,
            function: { name: call.function.name, arguments: call.function.arguments },
          })),
        }
      : {}),
  }));
  return renderChat(withToolsSection(messages, tools), { addGenerationPrompt: true }).length;
};

/** The built-in model's context length (its `maxSeqLen`), which its server refuses prompts beyond. */
export function builtinContextLength(): number {
  return parseModelConfig(JSON.parse(readFileSync(join(BASE_MODEL_DIR, "config.json"), "utf8"))).maxSeqLen;
}
