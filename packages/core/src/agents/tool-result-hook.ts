/**
 * The hook that sees each tool result before the model does, and may rewrite or withhold it (to
 * block a reward hack: a test file read, a grader probed). A tool result is decided once, the first
 * time a call carries it; agents resend their whole history, so later calls carry the same decision
 * and the model sees one consistent conversation. Every rewrite and denial is kept in the trace.
 */
import type { Content, Messages, ToolCall, ToolMessage } from "../messages/message.ts";

/** What the hook decides for one tool result, discriminated on `type`. */
export type ToolResultDecision =
  /** Forward it as the agent sent it. */
  | { type: "keep" }
  /** Forward `content` instead. */
  | { type: "rewrite"; content: Content; reason?: string }
  /** Forward a line saying it was withheld, with the reason. */
  | { type: "deny"; reason: string };

/** What the hook is shown. */
export interface ToolResultContext {
  /** The tool result as the agent sent it. */
  result: ToolMessage;
  /** The model's call it answers; undefined when no earlier assistant message made it. */
  call: ToolCall | undefined;
}

/** Decides a tool result; see the file comment. */
export type ToolResultHook = (context: ToolResultContext) => ToolResultDecision | Promise<ToolResultDecision>;

/** A tool result the hook changed, as the trace records it. */
export interface ToolResultEdit {
  toolCallId: string;
  /** The tool's name, when the call it answers was found. */
  toolName: string | null;
  type: "rewrite" | "deny";
  reason: string | null;
  /** The result as the agent sent it. */
  original: Content;
  /** What the model was sent instead. */
  forwarded: Content;
  /** The index in `AgentTrace.calls` (calls in the order they started) of the first call that carried it. */
  callIndex: number;
}

/** The text a denied result is replaced by. */
export function deniedResult(reason: string): string {
  return `[vf] this tool result was withheld: ${reason}`;
}

/** Applies a rollout's hook to the tool results of each call, deciding each result once. */
export class ToolResultFilter {
  readonly edits: ToolResultEdit[] = [];
  /** Tool call id -> what is forwarded instead (null: as sent). */
  private readonly decided = new Map<string, Promise<Content | null>>();

  constructor(private readonly hook: ToolResultHook) {}

  /** The messages with each tool result as the hook decided; `messages` is left as it was. */
  async apply(messages: Messages, callIndex: number): Promise<Messages> {
    const out = [...messages];
    for (const [i, message] of messages.entries()) {
      if (message.role !== "tool") continue;
      let decision = this.decided.get(message.tool_call_id);
      if (decision === undefined) {
        const id = message.tool_call_id;
        decision = this.decide(message, findCall(messages, i, id), callIndex);
        this.decided.set(id, decision);
        // A hook that failed is asked again by the next call that carries the result.
        decision.catch(() => this.decided.delete(id));
      }
      const forwarded = await decision;
      if (forwarded !== null) out[i] = { ...message, content: forwarded };
    }
    return out;
  }

  private async decide(
    result: ToolMessage,
    call: ToolCall | undefined,
    callIndex: number,
  ): Promise<Content | null> {
    const decision = await this.hook({ result, call });
    if (decision.type === "keep") return null;
    const forwarded = decision.type === "deny" ? deniedResult(decision.reason) : decision.content;
    this.edits.push({
      toolCallId: result.tool_call_id,
      toolName: call?.function.name ?? null,
      type: decision.type,
      reason: decision.reason ?? null,
      original: result.content,
      forwarded,
      callIndex,
    });
    return forwarded;
  }
}

/** The tool call with `id` in the assistant messages before `before`. */
function findCall(messages: Messages, before: number, id: string): ToolCall | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    const call = message.tool_calls?.find((c) => c.id === id);
    if (call) return call;
  }
  return undefined;
}
