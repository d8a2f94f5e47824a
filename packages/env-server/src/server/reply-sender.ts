/**
 * Replies to clients on the front ROUTER without letting a slow client make the server buffer
 * without limit, or hold up other clients' replies.
 *
 * The ROUTER queues at most `highWaterMark` messages per client in ZeroMQ and never blocks
 * (`mandatory`, send timeout 0): a send to a client whose queue is full fails at once. A run's
 * result that cannot go out then waits in that client's backlog and is retried; since the server
 * only accepts a bounded number of runs (see the broker), the backlog is bounded too. Replies that
 * answer nothing the client is waiting on for long (health, refusals) are dropped for a full
 * client. A reply to a client that has gone is dropped.
 */
import type { Router } from "zeromq";

const RETRY_MS = 25;

export class ReplySender {
  private readonly backlog = new Map<string, Uint8Array[][]>();
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  // zeromq.js takes one send at a time; with a send timeout of 0 each settles at once.
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Router,
    private readonly log: (line: string) => void,
  ) {}

  /** Sends `[peer, request_id, data]`; `keep`: a result worth waiting for a slow client. */
  send(frames: Uint8Array[], keep: boolean): void {
    this.tail = this.tail.then(() => this.deliver(frames, keep));
  }

  /** Replies held for slow clients. */
  get held(): number {
    let n = 0;
    for (const queued of this.backlog.values()) n += queued.length;
    return n;
  }

  /** Resolves when every reply given so far was sent, held or dropped. */
  flushed(): Promise<void> {
    return this.tail;
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.backlog.clear();
  }

  private async deliver(frames: Uint8Array[], keep: boolean): Promise<void> {
    const peer = Buffer.from(frames[0]!).toString("hex");
    const queued = this.backlog.get(peer);
    if (queued) {
      if (keep) queued.push(frames);
      else this.drop(peer);
      return;
    }
    if ((await this.trySend(frames)) !== "full") return;
    if (!keep) return this.drop(peer);
    this.backlog.set(peer, [frames]);
    this.timer ??= setInterval(() => {
      this.tail = this.tail.then(() => this.retry());
    }, RETRY_MS);
  }

  private async retry(): Promise<void> {
    for (const [peer, queued] of this.backlog) {
      while (queued.length > 0) {
        if ((await this.trySend(queued[0]!)) === "full") break;
        queued.shift();
      }
      if (queued.length === 0) this.backlog.delete(peer);
    }
    if (this.backlog.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** "sent", "full" (the client's queue is at its high-water mark) or "gone" (dropped). */
  private async trySend(frames: Uint8Array[]): Promise<"sent" | "full" | "gone"> {
    try {
      await this.socket.send(frames);
      return "sent";
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "EAGAIN") return "full";
      if (!this.socket.closed)
        this.log(`a reply was dropped: the client has gone (${code ?? String(error)})`);
      return "gone";
    }
  }

  private drop(peer: string): void {
    this.dropped += 1;
    if (this.dropped === 1 || this.dropped % 1000 === 0) {
      this.log(
        `client ${peer.slice(0, 12)} is not reading its replies: ${this.dropped} health or error replies dropped`,
      );
    }
  }
}
