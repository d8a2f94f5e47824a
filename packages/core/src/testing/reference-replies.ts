/**
 * A scripted model that answers like a perfect one: each request is matched to the conversation of
 * one of the environment's rows and answered with the next assistant message of that row's
 * `referenceCompletion`. Single-turn, multi-turn and tool environments alike, so a test can show the
 * top of a reward's range through a real rollout.
 */
import type { Environment } from "../envs/environment.ts";
import { contentText, type Message, type Messages } from "../messages/message.ts";
import type { ReplyFn, ScriptedReply } from "./scripted-reply.ts";

export interface ReferenceRepliesOptions {
  /** Which rows to learn the answers of; default "eval" (what `vf eval` runs). */
  split?: "train" | "eval";
  /** Reply when a conversation matches no row; default a message saying so. */
  unknown?: string;
}

/** Builds the script from the environment's rows and their reference completions. */
export async function referenceReplies(
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>,
  options: ReferenceRepliesOptions = {},
): Promise<ReplyFn> {
  const { inputs } = await env.inputs({ split: options.split ?? "eval" });
  const replies = new Map<string, ScriptedReply>();
  for (const input of inputs) {
    const conversation: Messages = [...input.prompt];
    for (const message of env.referenceCompletion(input)) {
      if (message.role === "assistant") replies.set(conversationKey(conversation), asReply(message));
      conversation.push(message);
    }
  }
  const unknown = options.unknown ?? "(no reference answer for this conversation)";
  return (request) => replies.get(conversationKey(request.messages)) ?? unknown;
}

/** What identifies a conversation: roles, texts and tool calls, not the ids a server makes up. */
function conversationKey(messages: Messages): string {
  return JSON.stringify(
    messages.map((m: Message) => [
      m.role,
      contentText(m.content),
      m.role === "assistant" ? (m.tool_calls ?? []).map((c) => [c.function.name, c.function.arguments]) : [],
    ]),
  );
}

function asReply(message: Extract<Message, { role: "assistant" }>): ScriptedReply {
  return {
    type: "message",
    content: message.content === null ? null : contentText(message.content),
    ...(message.tool_calls?.length
      ? {
          toolCalls: message.tool_calls.map((c) => ({
            name: c.function.name,
            arguments: c.function.arguments,
          })),
        }
      : {}),
  };
}
