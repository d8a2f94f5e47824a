// A model of another API than OpenAI's chat completions, as packages/core/README.md shows it:
// `createModelClient` gives the client for a `type`, and every client answers `chat` with the same
// `ModelResponse`. guide.test.ts runs it against the scripted server, which speaks each API.
import { evaluate } from "@vf-rl/core";
import { createModelClient } from "@vf-rl/core/client";
import { single } from "./environments.ts";

export async function evaluateOnClaude(baseUrl: string, apiKey: string) {
  const client = createModelClient({ type: "anthropic_messages", baseUrl, apiKey });
  const result = await evaluate(single, {
    clients: client,
    model: "claude-sonnet-5-5",
    rolloutsPerExample: 1,
  });
  await client.close();
  return result;
}
