/**
 * A rollout's turns as verifiers v1's message graph (`Trace.nodes`): each distinct message stored
 * once, linked to its predecessor, holding only the tokens it adds. It follows v1's commit rules
 * for provider-returned token ids (no per-message spans): a turn reuses the nodes its prompt shares
 * with the graph, cut back to where the stored tokens stop being a prefix of the turn's
 * `prompt_ids`; new input messages get no tokens; the assistant node gets the rest of the prompt's
 * tokens (the generation prompt) followed by the sampled completion, masked as sampled, with the
 * sampler's logprobs. Concatenating the nodes of a root-to-leaf path gives the exact
 * `prompt_ids + completion_ids` of its last turn; a turn whose prompt does not extend the previous
 * turn's tokens starts a new branch.
 *
 * Agent traces (the interception server) and the env server's v1 episodes both build it; nodes hold
 * vf's messages, which the env server writes in v1's message shape. Two messages are one node when
 * they read the same in v1's shape (see `nodeKey`).
 */
import type { TurnTokens } from "../client/model-client.ts";
import type { Content, Message, Messages } from "../messages/message.ts";

/** verifiers' `MessageNode`, its message in vf's shape (fields left at their defaults are omitted). */
export interface MessageNode {
  /** The node this message follows; null for the first message of a conversation. */
  parent: number | null;
  message: Message;
  /** Whether the model sampled it (an assistant reply), as opposed to an input message. */
  sampled: boolean;
  /** Epoch seconds when the node was created. */
  timestamp: number;
  /** The tokens this node adds to its path (a reply: the generation prompt and the sampled tokens). */
  token_ids: number[];
  /** One per token: whether it was sampled. */
  mask: boolean[];
  /** The sampler's logprob of each sampled token. */
  logprobs: number[];
}

/** One model turn to commit: the prompt it saw, its answer, its tokens, when it ended. */
export interface GraphTurn {
  prompt: Messages;
  completion: Message;
  tokens: TurnTokens | null;
  timestamp: number;
}

/** Builds `Trace.nodes`; `commitTurn` returns the assistant node's index. */
export class MessageGraph {
  readonly nodes: MessageNode[] = [];
  private readonly index = new Map<string, number>();

  /** Adds one model turn (see the file comment); returns its assistant node's index. */
  commitTurn(turn: GraphTurn): number {
    let prefix = this.matchPrefix(turn.prompt);
    let pathLen = prefix.reduce((n, id) => n + this.nodes[id]!.token_ids.length, 0);
    const promptIds = turn.tokens?.promptIds ?? [];
    if (turn.tokens && prefix.length > 0) {
      let keep = 0;
      let offset = 0;
      for (const id of prefix) {
        const stored = this.nodes[id]!.token_ids;
        if (!sameTokens(promptIds, offset, stored)) break;
        offset += stored.length;
        keep += 1;
      }
      prefix = prefix.slice(0, keep);
      pathLen = offset;
    }
    let parent = prefix.at(-1) ?? null;
    for (const message of turn.prompt.slice(prefix.length)) {
      parent = this.add({
        parent,
        message,
        sampled: false,
        timestamp: turn.timestamp,
        token_ids: [],
        mask: [],
        logprobs: [],
      });
    }
    const generationPrompt = promptIds.slice(pathLen);
    const completionIds = turn.tokens?.completionIds ?? [];
    return this.add({
      parent,
      message: turn.completion,
      sampled: true,
      timestamp: turn.timestamp,
      token_ids: [...generationPrompt, ...completionIds],
      mask: [...generationPrompt.map(() => false), ...completionIds.map(() => true)],
      logprobs: turn.tokens?.completionLogprobs ?? [],
    });
  }

  /** Adds the messages no model call saw (the last environment reply, or a prompt that never reached the model). */
  commitConversation(messages: Messages, timestamp: number): void {
    const prefix = this.matchPrefix(messages);
    let parent = prefix.at(-1) ?? null;
    for (const message of messages.slice(prefix.length)) {
      parent = this.add({
        parent,
        message,
        sampled: false,
        timestamp,
        token_ids: [],
        mask: [],
        logprobs: [],
      });
    }
  }

  private matchPrefix(messages: Messages): number[] {
    const ids: number[] = [];
    let parent: number | null = null;
    for (const message of messages) {
      const found = this.index.get(nodeKey(parent, message));
      if (found === undefined) break;
      ids.push(found);
      parent = found;
    }
    return ids;
  }

  private add(node: MessageNode): number {
    this.nodes.push(node);
    const id = this.nodes.length - 1;
    this.index.set(nodeKey(node.parent, node.message), id);
    return id;
  }
}

/**
 * Two messages are one node when they read the same in verifiers v1's shape: role, content (an
 * assistant's as text, null as ""), reasoning, tool calls (arguments compared as JSON) and tool call id.
 */
function nodeKey(parent: number | null, message: Message): string {
  let canonical: unknown;
  switch (message.role) {
    case "system":
    case "user":
      canonical = { role: message.role, content: v1Content(message.content) };
      break;
    case "tool":
      canonical = { role: "tool", tool_call_id: message.tool_call_id, content: v1Content(message.content) };
      break;
    case "assistant": {
      const content = message.content;
      canonical = {
        role: "assistant",
        content: content === null ? "" : typeof content === "string" ? content : textOf(content),
        ...(message.reasoning_content ? { reasoning_content: message.reasoning_content } : {}),
        tool_calls: message.tool_calls?.length
          ? message.tool_calls.map((call) => ({
              id: call.id,
              name: call.function.name,
              arguments: canonicalArguments(call.function.arguments),
            }))
          : undefined,
      };
    }
  }
  return `${parent}\u0000${JSON.stringify(canonical)}`;
}

function v1Content(content: Content): Content {
  if (typeof content === "string") return content;
  return content.map((part) =>
    part.type === "text"
      ? { type: "text" as const, text: part.text }
      : { type: "image_url" as const, image_url: { url: part.image_url.url } },
  );
}

function textOf(content: Exclude<Content, string>): string {
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function canonicalArguments(text: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    return text;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function sameTokens(all: number[], offset: number, part: number[]): boolean {
  if (offset + part.length > all.length) return false;
  for (let i = 0; i < part.length; i++) if (all[offset + i] !== part[i]) return false;
  return true;
}
