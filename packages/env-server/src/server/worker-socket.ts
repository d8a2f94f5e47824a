/**
 * A worker's side of the pool: a ROUTER on the worker's ipc address that takes the frames the
 * broker forwards (exactly as clients sent them: `[request_id, method, payload]` for v1,
 * `[request_id, payload]` for v0) and answers `[request_id, reply]`.
 */
import { zeromq } from "../zeromq-binding.ts";
import type { RequestHandler } from "./request-handler.ts";
import { SerialSender } from "./serial-sender.ts";

const text = new TextDecoder();

/** Serves `handler` on `address` until the socket is closed. */
export async function serveWorkerSocket(
  address: string,
  handler: RequestHandler,
  log: (line: string) => void,
): Promise<{ close(): void; done: Promise<void> }> {
  // The broker bounds what it sends to a worker, so nothing here needs a high-water mark.
  const router = new (zeromq().Router)({ linger: 0, sendHighWaterMark: 0, receiveHighWaterMark: 0 });
  await router.bind(address);
  const sender = new SerialSender(router, (error) => log(`worker: reply not sent: ${String(error)}`));
  const done = (async () => {
    try {
      for await (const frames of router) {
        const [peer, id] = frames;
        if (!peer || !id) continue;
        const requestId = text.decode(id);
        if (frames.length === 4) {
          void handler
            .v1(requestId, text.decode(frames[2]!), frames[3]!)
            .then((reply) => sender.send([peer, id, reply]));
        } else if (frames.length === 3) {
          void handler.v0(requestId, frames[2]!).then((reply) => {
            if (reply) void sender.send([peer, id, reply]);
          });
        } else {
          log(`worker: ignored a message of ${frames.length} frames`);
        }
      }
    } catch (error) {
      if (!router.closed) throw error;
    }
  })();
  return { close: () => router.close(), done };
}
