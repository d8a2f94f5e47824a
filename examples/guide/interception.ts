// An agent program's model traffic through the interception server, as packages/core/README.md
// shows it: the host registers a rollout with its model client, sampling, limits and a tool-result
// hook, points the agent at the rollout's endpoint, and reads the trace when the agent is done.
// interception.test.ts runs it against the scripted server.
import { contentText } from "@vf-rl/core";
import { startInterceptionServer } from "@vf-rl/core/agents";
import { createModelClient } from "@vf-rl/core/client";
import OpenAI from "openai";

export async function traceAnAgent(modelUrl: string) {
  const client = createModelClient({ type: "openai_chat_completions", baseUrl: modelUrl, apiKey: "EMPTY" });
  const server = await startInterceptionServer();
  const rollout = server.register({
    client,
    model: "Qwen/Qwen3-0.6B",
    sampling: { temperature: 1, return_token_ids: true },
    limits: { maxTurns: 20, maxCompletionTokens: 8192, timeSeconds: 600 },
    onToolResult: ({ result }) =>
      contentText(result.content).includes("tests/hidden")
        ? { type: "deny", reason: "the hidden tests are off limits" }
        : { type: "keep" },
  });

  // The agent: any program that speaks chat completions, Responses or Anthropic Messages.
  const { baseUrl, apiKey, name } = rollout.endpoint("openai_chat_completions");
  const agent = new OpenAI({ baseURL: baseUrl, apiKey });
  await agent.chat.completions.create({ model: name, messages: [{ role: "user", content: "What is 2+2?" }] });

  const trace = await rollout.end({ exitCode: 0 });
  await server.close();
  await client.close();
  return trace;
}
