import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { OpenAIModelClient } from "./openai-model-client.ts";
import { requestSignal } from "./request-signal.ts";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("requestSignal", () => {
  it("aborts with its parent, with the parent's reason", () => {
    const parent = new AbortController();
    const { signal } = requestSignal(parent.signal);
    parent.abort(new Error("stop"));
    expect(signal!.aborted).toBe(true);
    expect((signal!.reason as Error).message).toBe("stop");
  });

  it("no longer follows the parent once released", () => {
    const parent = new AbortController();
    const link = requestSignal(parent.signal);
    link.release();
    parent.abort();
    expect(link.signal!.aborted).toBe(false);
  });

  it("lets a rollout make many calls with one signal without a listener-leak warning", async () => {
    server = await startScriptedServer({ reply: () => "ok" });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const rollout = new AbortController();
      for (let turn = 0; turn < 15; turn++) {
        const message = { role: "user" as const, content: `turn ${turn}` };
        await client.chat({ model: "m", messages: [message], sampling: {} }, { signal: rollout.signal });
      }
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
      await client.close();
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
