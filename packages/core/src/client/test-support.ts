/** What the model clients' tests share: a question, and a client on a scripted server that retries fast. */
import type { Messages } from "../messages/message.ts";
import { type ScriptedServer, type ScriptedServerOptions, startScriptedServer } from "../testing/index.ts";
import type { ModelClientOptions } from "./model-client-options.ts";

export const messages: Messages = [
  { role: "system", content: "Answer with a number." },
  { role: "user", content: "What is 2+2?" },
];

/**
 * A scripted server and `create`'s client on it, retrying after 5 ms (the backoff schedule itself is
 * tested in retrying-call.test.ts); both are added to `opened`, for the test to close.
 */
export async function clientOnScriptedServer<C extends { close(): Promise<void> }>(
  create: (options: ModelClientOptions) => C,
  opened: Array<{ close(): Promise<void> }>,
  serverOptions: ScriptedServerOptions,
  clientOptions: Partial<ModelClientOptions> = {},
): Promise<{ server: ScriptedServer; client: C }> {
  const server = await startScriptedServer(serverOptions);
  const client = create({ baseUrl: server.url, apiKey: "EMPTY", retryDelaySeconds: 0.005, ...clientOptions });
  opened.push(client, server);
  return { server, client };
}
