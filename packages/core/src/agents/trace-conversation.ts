/**
 * An agent trace read as one conversation, the way a results row holds a rollout: the main branch
 * (the path of the message graph that ends at the last reply the model gave) split into the prompt
 * the model first saw and the completion after it. Earlier branches (an agent that compacted or
 * restarted its history) stay in the trace's nodes; the row's `prompt` and `completion` are the
 * branch the agent finished on.
 */
import type { Message, Messages } from "../messages/message.ts";
import type { AgentTrace } from "./agent-trace.ts";
import type { MessageNode } from "./message-graph.ts";

/** A trace's main branch as a prompt and a completion. */
export interface TraceConversation {
  /** The messages before the first reply on the branch (the harness's system prompt, the task). */
  prompt: Messages;
  /** The replies, tool results and other messages after it; empty when no call succeeded. */
  completion: Messages;
}

/** The main branch of `trace`; `fallbackPrompt` when no model call succeeded. */
export function traceConversation(trace: AgentTrace, fallbackPrompt: Messages): TraceConversation {
  const last = trace.calls.findLast((call) => call.node !== null);
  if (last?.node == null) return { prompt: fallbackPrompt, completion: [] };
  const path: Message[] = [];
  const sampled: boolean[] = [];
  for (let id: number | null = last.node; id !== null; ) {
    const node: MessageNode | undefined = trace.nodes[id];
    if (node === undefined) break;
    path.push(node.message);
    sampled.push(node.sampled);
    id = node.parent;
  }
  path.reverse();
  sampled.reverse();
  const first = sampled.indexOf(true);
  return { prompt: path.slice(0, first), completion: path.slice(first) };
}
