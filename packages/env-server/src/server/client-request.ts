/**
 * What a client's message on the front ROUTER asks for, in either protocol: v1 sends
 * `[request_id, method, payload]`, v0 `[request_id, payload]` (the payload `ping` is a health
 * probe, an empty one cancels that request id). The broker acts on the parsed request; payloads
 * of work are forwarded to a worker as they came, and validated there. A message in neither
 * framing, or over the size limit, is answered under its first frame, read as its request id.
 */
import { unpack } from "../wire/encoding.ts";
import { PING } from "../wire/v0-protocol.ts";

const text = new TextDecoder();

/** Who asked: the client's ROUTER identity and the request id, echoed in the reply. */
interface From {
  peer: Uint8Array;
  id: Uint8Array;
}

/** One client message, discriminated on `type`. */
export type ClientRequest =
  /** Answered by the broker itself: v1 `health` and `stats`, v0 `ping`. */
  | (From & { type: "probe"; probe: "health" | "stats" | "ping" })
  /** A run (v1 `run`, vf's `tasks`, v0 `run_rollout`/`run_group`): `frames` go to a worker. */
  | (From & { type: "work"; protocol: "v1" | "v0"; frames: Uint8Array[] })
  /**
   * A cancel of request `target` (undefined: a v1 body without a string `request_id`); `frames`
   * are forwarded to the worker running it.
   */
  | (From & { type: "cancel"; protocol: "v1" | "v0"; target: string | undefined; frames: Uint8Array[] })
  /** A v1 method no one serves; `method` is its first 64 bytes, `methodBytes` its whole length. */
  | (From & { type: "unknown-method"; method: string; methodBytes: number })
  /** Neither protocol's frame count (`frameCount` frames from the client, its id the first). */
  | (From & { type: "malformed"; frameCount: number })
  /** A message of `bytes`, over the limit; answered in the protocol its frame count is. */
  | (From & { type: "too-large"; protocol: "v1" | "v0"; bytes: number });

/** Longest method name read from a message; longer ones are not a method of either protocol. */
const METHOD_BYTES = 64;

/**
 * Reads a message the front ROUTER received (the client's identity first); a message whose
 * frames after the identity add up to more than `maxBytes` is `too-large`.
 */
export function parseClientMessage(frames: Uint8Array[], maxBytes: number): ClientRequest {
  // ZeroMQ never delivers a message without a frame, so a client's message has at least its id.
  const [peer = new Uint8Array(), id = new Uint8Array()] = frames;
  if (frames.length !== 3 && frames.length !== 4) {
    return { type: "malformed", frameCount: frames.length - 1, peer, id };
  }
  let bytes = 0;
  for (let i = 1; i < frames.length; i++) bytes += frames[i]!.length;
  if (bytes > maxBytes)
    return { type: "too-large", protocol: frames.length === 4 ? "v1" : "v0", bytes, peer, id };
  if (frames.length === 4) {
    const [, , methodFrame, payload] = frames as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    const method = text.decode(methodFrame.subarray(0, METHOD_BYTES));
    const forwarded = [id, methodFrame, payload];
    switch (method) {
      case "health":
      case "stats":
        return { type: "probe", probe: method, peer, id };
      case "run":
      case "tasks":
        return { type: "work", protocol: "v1", frames: forwarded, peer, id };
      case "cancel":
        return { type: "cancel", protocol: "v1", target: cancelTarget(payload), frames: forwarded, peer, id };
      default:
        return { type: "unknown-method", method, methodBytes: methodFrame.length, peer, id };
    }
  }
  const payload = frames[2]!;
  if (equalBytes(payload, PING)) return { type: "probe", probe: "ping", peer, id };
  if (payload.length === 0) {
    return { type: "cancel", protocol: "v0", target: text.decode(id), frames: [id, payload], peer, id };
  }
  return { type: "work", protocol: "v0", frames: [id, payload], peer, id };
}

/** The `request_id` of a v1 cancel body, or undefined when it has none (or is not msgpack). */
function cancelTarget(payload: Uint8Array): string | undefined {
  try {
    const body = unpack(payload) as { request_id?: unknown } | null;
    return typeof body?.request_id === "string" ? body.request_id : undefined;
  } catch {
    return undefined;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
