/**
 * Replies to clients on the front ROUTER without letting a slow client make the server buffer
 * without limit, or hold up other clients' replies.
 *
 * The ROUTER queues at most `maxQueuedReplies` messages per client in ZeroMQ and never blocks
 * (`mandatory`, send timeout 0): a send to a client whose queue is full fails at once. A reply that
 * cannot go out then waits in that client's backlog and is retried. What the backlog may hold
 * depends on the reply's kind:
 *
 * - `result`, the answer to a run the broker accepted: always kept. The broker accepts no new run
 *   from a client with a backlog (`isBacklogged`), so these are bounded by the runs it had accepted.
 * - `answer`, to any other request the client waits on (a refusal, a cancel, an unknown method):
 *   kept while fewer than `maxQueuedReplies` of them wait for that client, dropped past that.
 * - `probe`, to health or stats, which clients poll with a timeout: dropped.
 *
 * A reply to a client that has gone is dropped.
 */
import type { Router } from "zeromq";

const RETRY_MS = 25;

/** What a reply answers; decides whether it waits for a client that is not reading (see the file comment). */
export type ReplyKind = "result" | "answer" | "probe";

interface Backlog {
  replies: Array<{ frames: Uint8Array[]; kind: ReplyKind }>;
  /** How many of `replies` are answers (the bounded kind). */
  answers: number;
}

export class ReplySender {
  private readonly backlog = new Map<string, Backlog>();
  private timer: NodeJS.Timeout | undefined;
  private droppedCount = 0;
  // zeromq.js takes one send at a time; with a send timeout of 0 each settles at once.
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Router,
    private readonly maxQueuedReplies: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Sends `[peer, request_id, data]`, or holds it for a client that is not reading (by `kind`). */
  send(frames: Uint8Array[], kind: ReplyKind): void {
    this.tail = this.tail.then(() => this.deliver(frames, kind));
  }

  /** Replies held for slow clients. */
  get held(): number {
    let n = 0;
    for (const queued of this.backlog.values()) n += queued.replies.length;
    return n;
  }

  /** Replies held for this client (0: it reads its replies, or its queue in ZeroMQ has room). */
  heldFor(peer: Uint8Array): number {
    return this.backlog.get(peerKey(peer))?.replies.length ?? 0;
  }

  /** Clients with replies held. */
  get backloggedClients(): number {
    return this.backlog.size;
  }

  /** Replies dropped since the start because their client was not reading. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Resolves true once no reply is held for any client (each has read enough), false after `timeoutMs`. */
  async emptied(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.backlog.size > 0) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    return true;
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

  private async deliver(frames: Uint8Array[], kind: ReplyKind): Promise<void> {
    const peer = peerKey(frames[0]!);
    const queued = this.backlog.get(peer);
    if (queued) {
      this.hold(peer, queued, frames, kind);
      return;
    }
    if ((await this.trySend(frames)) !== "full") return;
    const fresh: Backlog = { replies: [], answers: 0 };
    this.hold(peer, fresh, frames, kind);
    if (fresh.replies.length === 0) return;
    this.backlog.set(peer, fresh);
    this.timer ??= setInterval(() => {
      this.tail = this.tail.then(() => this.retry());
    }, RETRY_MS);
  }

  private hold(peer: string, queued: Backlog, frames: Uint8Array[], kind: ReplyKind): void {
    if (kind === "probe" || (kind === "answer" && queued.answers >= this.maxQueuedReplies)) {
      this.drop(peer);
      return;
    }
    queued.replies.push({ frames, kind });
    if (kind === "answer") queued.answers += 1;
  }

  private async retry(): Promise<void> {
    for (const [peer, queued] of this.backlog) {
      while (queued.replies.length > 0) {
        const next = queued.replies[0]!;
        if ((await this.trySend(next.frames)) === "full") break;
        queued.replies.shift();
        if (next.kind === "answer") queued.answers -= 1;
      }
      if (queued.replies.length === 0) this.backlog.delete(peer);
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
    this.droppedCount += 1;
    if (this.droppedCount === 1 || this.droppedCount % 1000 === 0) {
      this.log(
        `client ${peer.slice(0, 12)} is not reading its replies: ${this.droppedCount} replies dropped so far`,
      );
    }
  }
}

function peerKey(peer: Uint8Array): string {
  return Buffer.from(peer).toString("hex");
}
