/**
 * Blobs in an S3-compatible bucket, addressed path-style (`<endpoint>/<bucket>/<prefix><key>`), so it
 * works with AWS S3, MinIO, Ceph, R2 and s3rver alike.
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { HubError } from "../hub-error.ts";
import { type BlobFile, type BlobStore, checkBlobKey } from "./blob-store.ts";
import { type S3Credentials, signS3Request } from "./s3-signature.ts";

/** Where the bucket is and how to sign for it. */
export interface S3Location extends S3Credentials {
  /** `http(s)://host[:port]`; default `https://s3.<region>.amazonaws.com`. */
  endpoint: string;
  bucket: string;
  /** Key prefix inside the bucket, e.g. `hub/` (may be empty). */
  prefix: string;
}

/** A blob store on the bucket at `location`. */
export function s3BlobStore(location: S3Location): BlobStore {
  const urlOf = (key: string) => {
    checkBlobKey(key);
    const path = `${location.bucket}/${location.prefix}${key}`.split("/").map(encodeURIComponent).join("/");
    return new URL(`${location.endpoint.replace(/\/$/, "")}/${path}`);
  };
  const send = async (method: string, key: string, body?: Uint8Array | BlobFile): Promise<Response> => {
    const url = urlOf(key);
    const type = { "content-type": "application/octet-stream" };
    let init: RequestInit;
    let headers: Record<string, string>;
    if (body === undefined) {
      headers = signS3Request({ method, url, headers: {} }, location);
      init = { method };
    } else if (body instanceof Uint8Array) {
      headers = signS3Request({ method, url, headers: type, body }, location);
      init = { method, body };
    } else {
      // Streamed from disk: signed by the hash computed when the file was written, with its length.
      const fileHeaders = { ...type, "content-length": String(body.size) };
      headers = signS3Request({ method, url, headers: fileHeaders, payloadSha256: body.sha256 }, location);
      const stream = Readable.toWeb(createReadStream(body.path)) as ReadableStream<Uint8Array>;
      init = { method, body: stream, duplex: "half" } as RequestInit;
    }
    delete headers.host;
    const response = await fetch(url, { ...init, headers });
    if (response.ok || response.status === 404) return response;
    const text = await response.text();
    throw new HubError(
      "internal",
      `the blob store answered ${response.status} to ${method} ${key}: ${text.slice(0, 200)}: check the bucket, endpoint and credentials`,
    );
  };
  return {
    kind: "s3",
    async put(key, data) {
      await send("PUT", key, data);
    },
    async putFile(key, file) {
      await send("PUT", key, file);
    },
    async get(key) {
      const response = await send("GET", key);
      return response.status === 404 ? null : new Uint8Array(await response.arrayBuffer());
    },
    async has(key) {
      const response = await send("HEAD", key);
      return response.status !== 404;
    },
    async delete(key) {
      await (await send("DELETE", key)).arrayBuffer();
    },
  };
}
