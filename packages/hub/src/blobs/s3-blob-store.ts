/**
 * Blobs in an S3-compatible bucket, addressed path-style (`<endpoint>/<bucket>/<prefix><key>`), so it
 * works with AWS S3, MinIO, Ceph, R2 and s3rver alike.
 */
import { HubError } from "../hub-error.ts";
import { type BlobStore, checkBlobKey } from "./blob-store.ts";
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
  const send = async (method: string, key: string, body?: Uint8Array): Promise<Response> => {
    const url = urlOf(key);
    const headers = signS3Request(
      body
        ? { method, url, headers: { "content-type": "application/octet-stream" }, body }
        : { method, url, headers: {} },
      location,
    );
    delete headers.host;
    const response = await fetch(url, body ? { method, headers, body } : { method, headers });
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
