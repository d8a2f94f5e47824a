import { afterEach, describe, expect, it } from "vitest";
import { CancelledError } from "../errors.ts";
import { type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { OpenAIModelClient } from "./openai-model-client.ts";
import { backoffMs, requestSignal, sleep } from "./retrying-call.ts";

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

describe("backoffMs", () => {
  const options = { initialMs: 500, maxMs: 8000 };

  it("doubles from the first delay, with jitter between half and all of it", () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const full = 500 * 2 ** attempt;
      for (let i = 0; i < 50; i++) {
        const delay = backoffMs(attempt, options);
        expect(delay).toBeGreaterThanOrEqual(full / 2);
        expect(delay).toBeLessThanOrEqual(full);
      }
    }
  });

  it("caps the delay, and waits at least a server's Retry-After (up to 60 s)", () => {
    expect(backoffMs(10, options)).toBeLessThanOrEqual(8000);
    expect(backoffMs(0, options, 3000)).toBe(3000);
    expect(backoffMs(0, options, 600_000)).toBe(60_000);
  });
});

describe("sleep", () => {
  it("ends at once with CancelledError when the signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await expect(sleep(120_000, controller.signal)).rejects.toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
