/**
 * What an environment's `envResponse` returned, checked where it enters the rollout. It is the
 * author's code, so the types do not hold at run time (plain JavaScript, a cast, a forgotten
 * `return`); a reply that is not chat messages ends the rollout with an `EnvResponseError` recorded
 * on it, instead of reaching the model's next request or a saved row that could not be read back.
 */
import { EnvResponseError } from "../errors.ts";
import { Messages } from "../messages/message.ts";
import { issueLines } from "../schema-issues.ts";
import type { EnvResponse } from "./multi-turn-env.ts";

/** The reply with its messages checked (and their defaults filled in); throws EnvResponseError. */
export function checkedEnvResponse(reply: unknown): EnvResponse {
  const final = hasMessages(reply);
  const messages = Array.isArray(reply) ? reply : final ? reply.messages : undefined;
  if (messages === undefined) {
    throw new EnvResponseError(
      `envResponse returned ${describe(reply)}: return an array of chat messages, or { messages, final: true } to end the rollout`,
    );
  }
  const parsed = Messages.safeParse(messages);
  if (!parsed.success) {
    throw new EnvResponseError(
      `envResponse returned what is not a chat message: ${issueLines(parsed.error, "(messages)")[0]}`,
    );
  }
  return final ? { messages: parsed.data, final: true } : parsed.data;
}

/** `{ messages, final: true }`: any object with a messages array counts, as the loop reads it. */
function hasMessages(reply: unknown): reply is { messages: unknown[] } {
  return typeof reply === "object" && reply !== null && "messages" in reply && Array.isArray(reply.messages);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return `an object with keys ${Object.keys(value).join(", ") || "(none)"}`;
  return `a ${typeof value}`;
}
