// What the interception server's tests share: a scripted model (with token ids) behind core's
// model client, an interception server in front of it, the real SDKs as agents, and cleanup.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach } from "vitest";
import { createModelClient } from "../client/create-model-client.ts";
import { contentText } from "../messages/message.ts";
import { byPrompt, type ScriptedServerOptions, startScriptedServer } from "../testing/index.ts";
import type { RolloutRegistration } from "./intercepted-rollout.ts";
import {
  type InterceptionServer,
  type InterceptionServerOptions,
  startInterceptionServer,
} from "./interception-server.ts";
import type { MessageNode } from "./message-graph.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

/** The scripted model: calls `add` first, then answers with what the tool said. */
export const addThenAnswer = byPrompt((messages) => {
  const last = messages[messages.length - 1]!;
  if (last.role === "tool") return `the sum is ${contentText(last.content)}`;
  return { type: "message", content: "Let me add.", toolCalls: [{ name: "add", arguments: { a: 2, b: 2 } }] };
});

export const ADD_TOOL = {
  type: "function" as const,
  function: {
    name: "add",
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  },
};

/** A scripted model (with token ids) and an interception server in front of it. */
export async function setup(scripted: ScriptedServerOptions = {}, options: InterceptionServerOptions = {}) {
  const model = await startScriptedServer({ tokens: true, reply: addThenAnswer, ...scripted });
  const client = createModelClient({
    type: "openai_chat_completions",
    baseUrl: model.url,
    apiKey: "EMPTY",
    maxRetries: 0,
  });
  const server = await startInterceptionServer(options);
  opened.push(server, client, model);
  const register = (options: Partial<RolloutRegistration> = {}) =>
    server.register({ client, model: "scripted", ...options });
  return { model, server, register };
}

export function openaiAgent(rollout: ReturnType<InterceptionServer["register"]>) {
  const { baseUrl, apiKey } = rollout.endpoint("openai_chat_completions");
  return new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0 });
}

export function anthropicAgent(rollout: ReturnType<InterceptionServer["register"]>) {
  const { baseUrl, apiKey } = rollout.endpoint("anthropic_messages");
  return new Anthropic({ baseURL: baseUrl, apiKey, maxRetries: 0 });
}

/** The tokens of the path from the root to `node`: a turn's prompt and completion when it extends its branch. */
export function pathTokens(nodes: MessageNode[], node: number): number[] {
  const path: number[] = [];
  for (let id: number | null = node; id !== null; id = nodes[id]!.parent) path.unshift(id);
  return path.flatMap((id) => nodes[id]!.token_ids);
}
