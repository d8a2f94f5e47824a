import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBlobStoreContract } from "./blob-store.contract.ts";
import { openBlobStore } from "./open-blob-store.ts";

// s3rver is a real S3-protocol server (it checks SigV4 signatures) that runs offline on loopback.
const dir = mkdtempSync(join(tmpdir(), "vf-s3-"));
const server = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory: dir,
  configureBuckets: [{ name: "hub" }],
});
let endpoint = "";
beforeAll(async () => {
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const urlFor = (accessKeyId: string) =>
  `s3://hub/vf?endpoint=${endpoint}&region=us-east-1&access_key_id=${accessKeyId}&secret_access_key=S3RVER`;

describeBlobStoreContract("S3 (s3rver)", async () => openBlobStore(urlFor("S3RVER")));

// s3rver checks the access key but not V4 signatures; s3-signature.test.ts checks those against AWS's
// published example.
it("reports refused credentials as a failure that names the fix", async () => {
  await expect(openBlobStore(urlFor("NOBODY")).put("x", new Uint8Array([1]))).rejects.toThrow(
    /answered 403.*credentials/s,
  );
});

it("asks for credentials when the URL has none", () => {
  expect(() => openBlobStore("s3://bucket", {})).toThrow(/set AWS_ACCESS_KEY_ID/);
});
