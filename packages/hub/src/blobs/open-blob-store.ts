/**
 * Opens the blob store a URL names: a folder path (or `file://` URL), or
 * `s3://bucket[/prefix]?endpoint=http://host:port&region=us-east-1` with credentials from
 * `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (or `access_key_id` / `secret_access_key` in the URL's
 * query, for tests).
 */
import { fileURLToPath } from "node:url";
import { HubError } from "../hub-error.ts";
import type { BlobStore } from "./blob-store.ts";
import { folderBlobStore } from "./folder-blob-store.ts";
import { s3BlobStore } from "./s3-blob-store.ts";

/** The store for `url`; throws `bad_request` saying what is missing. */
export function openBlobStore(url: string, env: NodeJS.ProcessEnv = process.env): BlobStore {
  if (url.startsWith("file://")) return folderBlobStore(fileURLToPath(url));
  if (!url.startsWith("s3://")) return folderBlobStore(url);
  const parsed = new URL(url);
  const region = parsed.searchParams.get("region") ?? env.AWS_REGION ?? "us-east-1";
  const accessKeyId = parsed.searchParams.get("access_key_id") ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = parsed.searchParams.get("secret_access_key") ?? env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new HubError(
      "bad_request",
      `the blob store ${parsed.origin}${parsed.pathname} has no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    );
  }
  const prefix = parsed.pathname.replace(/^\/+/, "");
  return s3BlobStore({
    bucket: parsed.hostname,
    prefix: prefix && !prefix.endsWith("/") ? `${prefix}/` : prefix,
    endpoint: parsed.searchParams.get("endpoint") ?? `https://s3.${region}.amazonaws.com`,
    region,
    accessKeyId,
    secretAccessKey,
  });
}
