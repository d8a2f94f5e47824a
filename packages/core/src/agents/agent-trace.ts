/**
 * What an agent did, as the interception server records it: every model call in order, the
 * conversation as a message graph (a turn that does not extend an earlier one starts a branch),
 * the tools offered, token ids and logprobs where the model returned them, the tool results the
 * host rewrote or withheld, and why it ended. This is what `vf eval` saves for an agent, what
 * `vf view` shows, what `vf env serve` returns as a verifiers v1 trace and what `vf train` learns from.
 */
import type { AssistantMessage, Messages } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import type { MessageNode } from "./message-graph.ts";
import type { ToolResultEdit } from "./tool-result-hook.ts";

/** One model call the agent made, as forwarded. */
export interface AgentCall {
  /** The API the agent spoke (its dialect), e.g. "anthropic_messages". */
  api: string;
  /** The model the agent asked for (the call went to the rollout's model whatever it named). */
  model: string;
  /** Whether the agent asked for the answer streamed. */
  stream: boolean;
  /** The conversation the call sent, as chat messages (tool results as the hook left them). */
  messages: Messages;
  tools: ToolDefinition[];
  /**
   * What the agent sent that has no form in the model's request and was left out (a hosted tool, a
   * block the chat APIs cannot carry), one line each as its dialect says it; empty when nothing was.
   */
  dropped: string[];
  /** The sampling settings sent to the model (the agent's, with the task's overrides). */
  sampling: Record<string, unknown>;
  /** The model's answer; null when the call failed. */
  reply: AssistantMessage | null;
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number } | null;
  /** vLLM's token fields of this call, when the model returned them. */
  tokens: { promptIds: number[]; completionIds: number[]; completionLogprobs: number[] } | null;
  /** The reply's node in `AgentTrace.nodes`; null when the call failed. */
  node: number | null;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  /** Why the call failed, when it did (the agent got an error answer). */
  error: string | null;
}

/** Why an agent's run ended. */
export type AgentStop =
  | "agent_completed"
  | "max_turns"
  | "max_completion_tokens"
  | "timeout"
  | "context_length"
  | "error"
  | "cancelled";

/** An agent's whole run. */
export interface AgentTrace {
  /** The model calls, in the order they started (refused calls are in `errors`, not here). */
  calls: AgentCall[];
  /** The conversation as verifiers v1's message graph; each call's reply is the node it names. */
  nodes: MessageNode[];
  /** Tool results the host's hook rewrote or withheld, in the order it decided them. */
  toolResults: ToolResultEdit[];
  stop: AgentStop;
  /** What went wrong, in order (a failed call, a limit reached, the program's crash). */
  errors: Array<{ type: string; message: string }>;
  /** The program's exit code; null when it was killed (or has not ended). */
  exitCode: number | null;
  /** The last lines the program wrote (stdout and stderr), for the viewer and error messages. */
  output: string;
}
