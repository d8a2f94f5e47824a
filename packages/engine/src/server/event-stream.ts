/**
 * A streamed answer as server-sent events: `data: <json>` lines closed by `data: [DONE]`, as OpenAI
 * and vLLM stream chat and text completions. The response goes out (status and headers) as soon as
 * the route returns it; `produce` then sends events as tokens are sampled.
 */
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";

/** The events of one streamed answer. */
export class EventStream {
  constructor(private readonly stream: SSEStreamingApi) {}

  /** Sends one event holding `data` as JSON. */
  send(data: unknown): void {
    // written at once, in call order; a client that went away makes it a no-op
    void this.stream.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  /** Sends `data: [DONE]`; resolves once every event is handed to the connection. */
  async done(): Promise<void> {
    await this.stream.write("data: [DONE]\n\n");
  }

  /**
   * Ends the answer with a failure. The status line has gone out, so the error travels as an event
   * in OpenAI's shape, as OpenAI's servers do.
   */
  async fail(error: Error): Promise<void> {
    this.send({ error: { message: error.message, type: "server_error", param: null, code: null } });
    await this.done();
  }
}

/**
 * A 200 answer of server-sent events that `produce` writes; a failure of `produce` ends the stream
 * with an error event.
 *
 * @example
 * return eventStream(c, async (events) => { events.send({ text: "hi" }); await events.done(); });
 */
export function eventStream(c: Context, produce: (events: EventStream) => Promise<void>): Response {
  return streamSSE(c, async (stream) => {
    const events = new EventStream(stream);
    try {
      await produce(events);
    } catch (error) {
      await events.fail(error as Error);
    }
  });
}
