/**
 * A model client that answers with a row's reference completion, in process: each call returns the
 * next assistant message of `env.referenceCompletion(input)`, so the environment's own loop (its
 * tools, its replies, its per-rollout data) runs as it would with a perfect model, with no model.
 * A call past the reference's last reply is a `ReferenceExhaustedError`, recorded on the rollout.
 */
import type { ChatRequest, ModelClient, ModelResponse } from "../client/model-client.ts";
import { AuthoringError } from "../errors.ts";
import type { AssistantMessage, Messages } from "../messages/message.ts";

/** The environment asked for more turns than the reference completion has replies. */
export class ReferenceExhaustedError extends AuthoringError {
  constructor(
    /** The assistant replies the reference has. */
    readonly replies: number,
  ) {
    super(
      `the environment asked for reply ${replies + 1}, and the reference completion has ${replies}: make referenceCompletion give every reply the rollout needs`,
    );
  }
}

/** A client replaying the assistant messages of `reference` in order; see the file comment. */
export function referenceClient(reference: Messages): ModelClient {
  const replies = reference.filter((m): m is AssistantMessage => m.role === "assistant");
  let next = 0;
  return {
    baseUrl: "reference",
    chat: async (request: ChatRequest): Promise<ModelResponse> => {
      const message = replies[next++];
      if (message === undefined) throw new ReferenceExhaustedError(replies.length);
      return {
        id: `reference-${next}`,
        model: request.model,
        message,
        finishReason: message.tool_calls?.length ? "tool_calls" : "stop",
        usage: { promptTokens: 0, completionTokens: 0 },
        tokens: null,
      };
    },
  };
}
