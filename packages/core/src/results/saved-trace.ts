/**
 * An agent rollout's trace as the viewers (`vf view`, its web pages, the Hub's reports) read it back from a results row. The row's schema checks a
 * trace's calls and nodes only as lists (their shape is core/agents' `AgentCall` and `MessageNode`);
 * these schemas read the fields the viewer shows, each with a default, so a trace written by an
 * older vf, or a file edited by hand, shows what it holds instead of breaking the screen. A call's
 * messages are read only for a failed call (`sentMessages`): a reply is the node it names, and the
 * history is the graph, so each message is read once however many calls resent it.
 */
import { z } from "zod";
import { Content, Message } from "../messages/message.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import { issueLines } from "../schema-issues.ts";

/** A tool the call offered; a schema of another shape reads as no arguments. */
export const SavedTool = z.object({
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).catch({}),
  }),
});
export type SavedTool = z.infer<typeof SavedTool>;

/** One model call, as the viewer lists it. */
export const SavedCall = z.object({
  api: z.string().default("?"),
  model: z.string().default("?"),
  stream: z.boolean().default(false),
  finishReason: z.string().nullable().default(null),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }).nullable().default(null),
  /** Only whether token ids came back and how many were sampled; the ids are the trainer's. */
  tokens: z
    .object({ completionIds: z.array(z.unknown()) })
    .transform((tokens) => ({ completion: tokens.completionIds.length }))
    .nullable()
    .default(null),
  node: z.number().int().nullable().default(null),
  start: z.number().default(0),
  end: z.number().default(0),
  error: z.string().nullable().default(null),
  dropped: z.array(z.string()).default([]),
  sampling: z.record(z.string(), z.unknown()).default({}),
  /** The conversation sent, left unread (see `sentMessages`). */
  messages: z.array(z.unknown()).default([]),
  /** The tools offered; a list the viewer cannot read shows as none. */
  tools: z.array(SavedTool).catch([]),
});
export type SavedCall = z.infer<typeof SavedCall>;

/** One message of the graph: the node it follows, and whether the model sampled it. */
export const SavedNode = z.object({
  parent: z.number().int().nullable(),
  message: Message,
  sampled: z.boolean().default(false),
});
export type SavedNode = z.infer<typeof SavedNode>;

/** A tool result the host's hook rewrote or withheld. */
export const SavedToolResultEdit = z.object({
  toolCallId: z.string(),
  toolName: z.string().nullable().default(null),
  type: z.string(),
  reason: z.string().nullable().default(null),
  /** The result as the agent sent it, before the hook. */
  original: Content.catch(""),
  callIndex: z.number().int().default(0),
});
export type SavedToolResultEdit = z.infer<typeof SavedToolResultEdit>;

/** An agent's trace as a row keeps it, read leniently: what an older or edited row lacks has a default. */
export const SavedTrace = z.object({
  calls: z.array(SavedCall),
  nodes: z.array(SavedNode),
  toolResults: z.array(SavedToolResultEdit).default([]),
  stop: z.string(),
  errors: z.array(z.object({ type: z.string(), message: z.string() })).default([]),
  exitCode: z.number().int().nullable().default(null),
  output: z.string().default(""),
});
export type SavedTrace = z.infer<typeof SavedTrace>;

/** A row's trace read back: none (an environment's own rollout), the trace, or why it cannot be read. */
export type ReadTrace =
  | { type: "none" }
  | { type: "trace"; trace: SavedTrace }
  | { type: "unreadable"; message: string };

// Screens are redrawn on every key: each row's trace is read once.
const read = new WeakMap<RolloutRecord, ReadTrace>();

/** The trace of `record`, read once per record. */
export function readTrace(record: RolloutRecord): ReadTrace {
  const cached = read.get(record);
  if (cached) return cached;
  let result: ReadTrace;
  if (!record.trace) result = { type: "none" };
  else {
    const parsed = SavedTrace.safeParse(record.trace);
    result = parsed.success
      ? { type: "trace", trace: parsed.data }
      : { type: "unreadable", message: issueLines(parsed.error, "trace").slice(0, 2).join("; ") };
  }
  read.set(record, result);
  return result;
}

/** The messages a call sent from position `from` on, as far as they read as messages. */
export function sentMessages(call: SavedCall, from: number): Message[] {
  const messages: Message[] = [];
  for (const raw of call.messages.slice(from)) {
    const parsed = Message.safeParse(raw);
    if (!parsed.success) break;
    messages.push(parsed.data);
  }
  return messages;
}
