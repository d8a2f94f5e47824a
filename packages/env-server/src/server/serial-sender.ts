/**
 * Sends on a ZeroMQ socket one message at a time: zeromq.js refuses a second `send` while one is
 * waiting, and replies finish in any order. Messages go out in the order given.
 */
import type { Socket } from "zeromq";

export class SerialSender {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket & { send(frames: Uint8Array[]): Promise<void> },
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues `frames`; a failure goes to `onError`, never to the caller. */
  send(frames: Uint8Array[]): Promise<void> {
    this.tail = this.tail.then(
      () => this.socket.send(frames).catch(this.onError),
      () => undefined,
    );
    return this.tail;
  }
}
