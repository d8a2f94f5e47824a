/**
 * The broker's client-facing half (its pool of workers is worker-pool.ts): the ROUTER socket
 * clients connect to. It reads each client message (client-request.ts), answers `health`, `stats`
 * and v0 `ping` itself, even while workers load, decides whether to accept a run, hands accepted
 * runs and cancels to the pool, and words every reply for the protocol it answers. Replies go out
 * through reply-sender.ts, which holds those a client does not read; while it holds any for a
 * client, that client's new runs are refused. A message in neither protocol's framing, or over
 * the size limit, is answered with an error under its request id.
 */
import type { Router } from "zeromq";
import { pack } from "../wire/encoding.ts";
import { V0_CANCELLED_ERROR } from "../wire/v0-protocol.ts";
import {
  CANCELLED_ERROR,
  failedReply,
  type StatsReply,
  unknownMethodError,
  type V1Replies,
} from "../wire/v1-protocol.ts";
import { pythonStringRepr } from "../wire/wire-error.ts";
import { zeromq } from "../zeromq-binding.ts";
import { type ClientRequest, parseClientMessage } from "./client-request.ts";
import { type ReplyKind, ReplySender } from "./reply-sender.ts";
import type { JobOutcome, PoolJob, WorkerPool } from "./worker-pool.ts";

/** How long a drain waits for clients to read the replies held for them, and then for ZeroMQ to send its queue. */
const DRAIN_GRACE_MS = 30_000;
const DRAIN_LINGER_MS = 2_000;
/** Messages ZeroMQ queues from one client before the broker reads them (it reads without pause). */
const RECEIVE_QUEUE = 10_000;
const text = new TextDecoder();

/** A client's request as the pool holds it: who asked, and in which protocol to answer. */
export interface ClientJob extends PoolJob {
  /** The client's ROUTER identity. */
  peer: Uint8Array;
  /** The request id as the client sent it, echoed in the reply. */
  id: Uint8Array;
  protocol: "v1" | "v0";
}

export interface FrontEndOptions {
  /** vf's version, named in `stats`. */
  vfVersion: string;
  /** Replies ZeroMQ queues for one client that is not reading them (its high-water mark). */
  maxQueuedReplies: number;
  /** Largest request, in bytes, answered rather than refused. */
  maxMessageBytes: number;
  /** The bounds `stats` reports. */
  limits: StatsReply["limits"];
  log: (line: string) => void;
}

/**
 * Binds the client-facing ROUTER at `address`. It never blocks on one client: a send to a client
 * whose queue holds `maxQueuedReplies` fails at once (`mandatory`, send timeout 0). ZeroMQ itself
 * drops the connection of a client sending a frame over twice `maxMessageBytes`, before reading
 * it, so the broker never holds one; requests between the two are read and refused with a reply.
 */
export async function bindFrontSocket(
  address: string,
  limits: { maxQueuedReplies: number; maxMessageBytes: number },
): Promise<Router> {
  const socket = new (zeromq().Router)({
    mandatory: true,
    sendTimeout: 0,
    sendHighWaterMark: limits.maxQueuedReplies,
    receiveHighWaterMark: RECEIVE_QUEUE,
    maxMessageSize: 2 * limits.maxMessageBytes,
    linger: 0,
  });
  await socket.bind(address);
  return socket;
}

export class FrontEnd {
  private readonly replies: ReplySender;
  private readonly receiving: Promise<void>;
  private runsAccepted = 0;
  private runsRefused = 0;

  /** Starts answering the clients of a bound `socket`, handing their runs to `pool`. */
  constructor(
    private readonly socket: Router,
    private readonly pool: WorkerPool<ClientJob>,
    private readonly options: FrontEndOptions,
  ) {
    this.replies = new ReplySender(socket, options.maxQueuedReplies, options.log);
    this.receiving = this.receive();
  }

  /** Answers a job the pool settled: the worker's reply as it came, or its error in the job's protocol. */
  settle(job: ClientJob, outcome: JobOutcome): void {
    const kind = job.isWork ? "result" : "answer";
    if (outcome.type === "reply") this.replies.send([job.peer, job.id, outcome.data], kind);
    else this.replyError(job, outcome.name, outcome.message, kind);
  }

  /** Answers a job the server gives up on because it was stopped before the job finished. */
  abandon(job: ClientJob): void {
    this.replyError(
      job,
      "ServerClosedError",
      "the env server was stopped before this request finished",
      "result",
    );
  }

  /** What the server holds now: the reply of the `stats` method. */
  stats(): StatsReply {
    return {
      success: true,
      error: null,
      vf_version: this.options.vfVersion,
      state: this.pool.state === "running" ? "running" : "draining",
      workers: this.pool.workers(),
      accepted: this.pool.accepted,
      queued: this.pool.queued,
      runs_accepted: this.runsAccepted,
      runs_refused: this.runsRefused,
      held_replies: this.replies.held,
      backlogged_clients: this.replies.backloggedClients,
      dropped_replies: this.replies.dropped,
      limits: this.options.limits,
    };
  }

  /** Gives clients that read slowly up to 30 s to read the replies held for them (a drain). */
  async letClientsRead(): Promise<void> {
    if (!(await this.replies.emptied(DRAIN_GRACE_MS))) {
      this.options.log(
        `${this.replies.held} replies were not read by their clients within ${DRAIN_GRACE_MS / 1000} s: dropped`,
      );
    }
  }

  /**
   * Closes the socket once every reply given so far was sent, held or dropped; `graceful` (a
   * drain) lets ZeroMQ send what it still queues for clients for 2 s more.
   */
  async close(graceful: boolean): Promise<void> {
    await this.replies.flushed();
    this.replies.close();
    if (graceful && !this.socket.closed) this.socket.linger = DRAIN_LINGER_MS;
    this.socket.close();
    await this.receiving;
  }

  private async receive(): Promise<void> {
    try {
      for await (const frames of this.socket)
        this.onClientMessage(parseClientMessage(frames, this.options.maxMessageBytes));
    } catch (error) {
      if (!this.socket.closed) this.options.log(`the server socket failed: ${String(error)}`);
    }
  }

  private onClientMessage(request: ClientRequest): void {
    switch (request.type) {
      case "probe": {
        const reply: V1Replies["stats" | "health"] =
          request.probe === "stats" ? this.stats() : { success: true, error: null };
        this.replies.send([request.peer, request.id, pack(reply)], "probe");
        break;
      }
      case "work": {
        const { peer, id, protocol, frames } = request;
        this.accept({ key: text.decode(id), peer, id, protocol, frames, isWork: true });
        break;
      }
      case "cancel":
        this.cancel(request);
        break;
      case "unknown-method": {
        const { method, methodBytes } = request;
        const error =
          methodBytes > method.length
            ? `${unknownMethodError(method)}... (${methodBytes} bytes)`
            : unknownMethodError(method);
        this.replies.send([request.peer, request.id, pack(failedReply(error))], "answer");
        break;
      }
      case "malformed": {
        const frames = `${request.frameCount} frame${request.frameCount === 1 ? "" : "s"}`;
        this.replyError(
          { ...request, protocol: "v1" },
          "MalformedMessageError",
          `a message of ${frames} is neither protocol's: v1 sends [request_id, method, payload], v0 [request_id, payload]: send one request per message in one of them`,
        );
        break;
      }
      case "too-large":
        this.runsRefused += 1;
        this.replyError(
          request,
          "MessageTooLargeError",
          `this request is ${formatSize(request.bytes)}, over this env server's limit of ${formatSize(this.options.maxMessageBytes)}: send a smaller request, or raise the server's limit (vf env serve --max-message-mib)`,
        );
    }
  }

  private accept(job: ClientJob): void {
    const refusal = this.pool.refusal(job.key) ?? this.backlogRefusal(job.peer);
    if (refusal) {
      this.runsRefused += 1;
      this.replyError(job, refusal.name, refusal.message);
    } else {
      this.runsAccepted += 1;
      this.pool.submit(job);
    }
  }

  /**
   * A client that does not read its replies gets no more work: what the server holds for it stays
   * bounded by the runs it had accepted (see reply-sender.ts).
   */
  private backlogRefusal(peer: Uint8Array): { name: string; message: string } | undefined {
    const held = this.replies.heldFor(peer);
    if (held === 0) return undefined;
    return {
      name: "ClientBacklogError",
      message: `${held} replies to this client are waiting for it to read them: read its replies before sending more runs`,
    };
  }

  private cancel(request: Extract<ClientRequest, { type: "cancel" }>): void {
    const { peer, id, protocol, target, frames } = request;
    if (target === undefined) {
      this.replyError(request, "ValidationError", "invalid CancelRequest: request_id must be a string");
      return;
    }
    const outcome = this.pool.cancel(target);
    if (outcome.type === "dequeued") {
      const error = protocol === "v1" ? CANCELLED_ERROR : V0_CANCELLED_ERROR;
      this.replies.send([outcome.job.peer, outcome.job.id, pack(failedReply(error))], "result");
    }
    if (protocol === "v0") {
      // v0 cancels get no reply; the cancelled run answers for itself.
      if (outcome.type === "running") this.pool.tellWorkerOf(target, frames);
    } else if (outcome.type === "running") {
      // The worker answers whether it cancelled.
      this.pool.forwardAlong(target, { key: text.decode(id), peer, id, protocol, frames, isWork: false });
    } else {
      const reply: V1Replies["cancel"] = {
        success: true,
        error: null,
        cancelled: outcome.type === "dequeued",
      };
      this.replies.send([peer, id, pack(reply)], "answer");
    }
  }

  private replyError(
    to: Pick<ClientJob, "peer" | "id" | "protocol">,
    type: string,
    message: string,
    kind: ReplyKind = "answer",
  ): void {
    const error = to.protocol === "v1" ? `${type}: ${message}` : `${type}(${pythonStringRepr(message)})`;
    this.replies.send([to.peer, to.id, pack(failedReply(error))], kind);
  }
}

/** A size in bytes as people read it: 512 bytes, 1.5 KiB, 64 MiB. */
function formatSize(bytes: number): string {
  const units: Array<[string, number]> = [
    ["GiB", 2 ** 30],
    ["MiB", 2 ** 20],
    ["KiB", 2 ** 10],
  ];
  for (const [unit, size] of units) {
    if (bytes >= size) return `${bytes % size === 0 ? bytes / size : (bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} bytes`;
}
