/**
 * AWS Signature Version 4 for S3 requests (header auth, signed payload hash): enough to talk to AWS
 * S3, MinIO, Ceph, R2 or s3rver without an SDK. Spec: AWS "Signature Version 4 signing process".
 */
import { createHash, createHmac } from "node:crypto";

/** Credentials and region of a bucket. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** The request to sign; `headers` must not yet hold the auth headers. */
export interface SignInput {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Hex SHA-256 of a body sent as a stream (instead of `body`). */
  payloadSha256?: string;
  /** Signing time; default now. */
  now?: Date;
}

const sha256Hex = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Uint8Array | string, data: string) => createHmac("sha256", key).update(data).digest();

/** `headers` plus `host`, `x-amz-date`, `x-amz-content-sha256` and `authorization`. */
export function signS3Request(input: SignInput, credentials: S3Credentials): Record<string, string> {
  const now = input.now ?? new Date();
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...input.headers,
    host: input.url.host,
    "x-amz-date": amzDate,
    "x-amz-content-sha256": input.payloadSha256 ?? sha256Hex(input.body ?? new Uint8Array()),
  };
  const names = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .sort();
  const lower = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, " ")]),
  );
  const canonicalRequest = [
    input.method,
    canonicalPath(input.url.pathname),
    canonicalQuery(input.url.searchParams),
    names.map((n) => `${n}:${lower[n]}\n`).join(""),
    names.join(";"),
    headers["x-amz-content-sha256"],
  ].join("\n");
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), "s3"),
    "aws4_request",
  );
  const signature = createHmac("sha256", key).update(stringToSign).digest("hex");
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}`,
  };
}

/** RFC 3986 encoding of every byte but the unreserved ones, as SigV4 wants. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalPath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => encode(decodeURIComponent(segment)))
    .join("/");
}

function canonicalQuery(params: URLSearchParams): string {
  return [...params.entries()]
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}
