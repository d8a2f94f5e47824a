/** The contract every `BlobStore` passes; run by the folder and S3 tests. No test is skipped. */
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BlobStore } from "./blob-store.ts";

/** Registers the contract tests for the store `open` returns (opened once per file). */
export function describeBlobStoreContract(name: string, open: () => Promise<BlobStore>): void {
  describe(`BlobStore contract: ${name}`, () => {
    it("puts, gets, checks and deletes blobs, including binary and empty ones", async () => {
      const store = await open();
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
      expect(await store.get("tarballs/absent.tgz")).toBeNull();
      expect(await store.has("tarballs/absent.tgz")).toBe(false);
      await store.put("tarballs/a.tgz", bytes);
      await store.put("tarballs/a.tgz", bytes);
      await store.put("empty", new Uint8Array());
      expect(Buffer.from((await store.get("tarballs/a.tgz"))!)).toEqual(Buffer.from(bytes));
      expect((await store.get("empty"))!.length).toBe(0);
      expect(await store.has("tarballs/a.tgz")).toBe(true);
      await store.delete("tarballs/a.tgz");
      await store.delete("tarballs/a.tgz");
      expect(await store.get("tarballs/a.tgz")).toBeNull();
    });

    it("stores a file streamed from disk, byte for byte", async () => {
      const store = await open();
      const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7) % 251);
      const dir = await mkdtemp(join(tmpdir(), "vf-blob-file-"));
      const path = join(dir, "upload.tgz");
      await writeFile(path, bytes);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      await store.putFile("tarballs/file.tgz", { path, size: bytes.length, sha256 });
      expect(Buffer.from((await store.get("tarballs/file.tgz"))!).equals(Buffer.from(bytes))).toBe(true);
      await store.delete("tarballs/file.tgz");
      await rm(dir, { recursive: true, force: true });
    });

    it("refuses keys that could escape the store", async () => {
      const store = await open();
      await expect(store.put("../etc/passwd", new Uint8Array([1]))).rejects.toThrow(/not allowed/);
      await expect(store.get("/abs")).rejects.toThrow(/not allowed/);
    });
  });
}
