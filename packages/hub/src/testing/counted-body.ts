/**
 * A request body of any size made on demand, which counts the bytes the server pulled from it: a
 * test of a body cap asserts on `pulled`, never on memory use.
 */

/** A lazily generated body of `total` bytes, and how many bytes of it have been read. */
export interface CountedBody {
  stream: ReadableStream<Uint8Array>;
  /** Bytes handed to the reader so far. */
  readonly pulled: number;
}

/** The chunk size of `countedBody`: 64 KiB. */
export const COUNTED_CHUNK = 64 * 1024;

/** A body of `total` bytes of `fill` (default "x", so a form field or JSON string stays valid). */
export function countedBody(total: number, fill = "x"): CountedBody {
  const chunk = new Uint8Array(COUNTED_CHUNK).fill(fill.charCodeAt(0));
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const size = Math.min(COUNTED_CHUNK, total - pulled);
        if (size <= 0) return controller.close();
        pulled += size;
        controller.enqueue(chunk.slice(0, size));
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    get pulled() {
      return pulled;
    },
  };
}
