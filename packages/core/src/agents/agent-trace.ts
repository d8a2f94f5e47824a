/**
 * What an agent did, as the interception server records it: every model call in order, the
 * conversation as a message graph (a turn that does not extend an earlier one starts a branch),
 * the tools offered, token ids and logprobs where the model returned them, and why it ended. This
 * is what `vf eval` saves for an agent, what `vf view` shows, what `vf env serve` returns as a
 * verifiers v1 trace and what `vf train` learns from.
 */
import type { AssistantMessage, Messages } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** One model call the agent made, as forwarded. */
export interface AgentCall {
  /** The API the agent spoke (its dialect), e.g. "anthropic_messages". */
  api: string;
  /** The conversation the call sent, as chat messages. */
  messages: Messages;
  tools: ToolDefinition[];
  /** The sampling settings sent to the model (the agent's, with the task's overrides). */
  sampling: Record<string, unknown>;
  /** The model's answer; null when the call failed. */
  reply: AssistantMessage | null;
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number } | null;
  /** vLLM's token fields of this call, when the model returned them. */
  tokens: { promptIds: number[]; completionIds: number[]; completionLogprobs: number[] } | null;
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
  calls: AgentCall[];
  stop: AgentStop;
  /** What went wrong, in order (a failed call, a tool result denied, the program's crash). */
  errors: Array<{ type: string; message: string }>;
  /** The program's exit code; null when it was killed. */
  exitCode: number | null;
  /** The last lines the program wrote (stdout and stderr), for the viewer and error messages. */
  output: string;
}
