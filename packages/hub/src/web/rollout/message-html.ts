/**
 * A conversation as HTML: each message's role and text, the tool calls a reply made (arguments
 * pretty-printed), and each tool result under the name of the call it answers. A result the host's
 * hook rewrote or withheld says so, with what the agent sent.
 */
import { contentText, type Message } from "@vf-rl/core";
import type { SavedToolResultEdit } from "@vf-rl/core/results";
import { html, type SafeHtml } from "../html.ts";

/** What a conversation's messages are shown with. */
export interface ConversationOptions {
  /** Rewritten or withheld tool results, by tool call id (an agent trace's `toolResults`). */
  edits?: ReadonlyMap<string, SavedToolResultEdit>;
  /** Messages earlier in the same conversation, not shown, whose tool calls name later results. */
  before?: readonly Message[];
}

/** Every message of `messages`, tool results named after the calls (in the same list) they answer. */
export function conversationHtml(messages: readonly Message[], options: ConversationOptions = {}): SafeHtml {
  const names = new Map<string, string>();
  for (const message of [...(options.before ?? []), ...messages]) {
    if (message.role !== "assistant") continue;
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  return html`${messages.map((message) => messageHtml(message, names, options))}`;
}

function messageHtml(message: Message, names: Map<string, string>, options: ConversationOptions): SafeHtml {
  const text = contentText(message.content);
  if (message.role === "tool") {
    const edit = options.edits?.get(message.tool_call_id);
    const name = names.get(message.tool_call_id);
    return html`<div class="msg tool"><div class="role">tool result${name ? html` · <code>${name}</code>` : ""} <code class="small muted">${message.tool_call_id}</code>${edit ? html` <span class="badge">${edit.type} by the host</span>` : ""}</div>
${text ? html`<pre>${text}</pre>` : html`<p class="muted small">(empty)</p>`}${edit ? editHtml(edit) : ""}</div>`;
  }
  const calls = message.role === "assistant" ? (message.tool_calls ?? []) : [];
  const reasoning = message.role === "assistant" ? message.reasoning_content : undefined;
  return html`<div class="msg ${message.role}"><div class="role">${message.role}</div>
${reasoning ? html`<details class="reasoning"><summary class="small muted">reasoning</summary><pre>${reasoning}</pre></details>` : ""}${text ? html`<pre>${text}</pre>` : ""}${calls.map(
  (call) =>
    html`<div class="tool-call"><span class="small"><strong>tool call</strong> <code>${call.function.name}</code> <code class="small muted">${call.id}</code></span><pre>${prettyArguments(call.function.arguments)}</pre></div>`,
)}</div>`;
}

function editHtml(edit: SavedToolResultEdit): SafeHtml {
  const original = contentText(edit.original);
  return html`${edit.reason ? html`<p class="small">reason: ${edit.reason}</p>` : ""}<details><summary class="small muted">what the agent sent</summary><pre>${original}</pre></details>`;
}

/** Arguments are a JSON string; shown indented when they parse, as sent otherwise. */
function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
