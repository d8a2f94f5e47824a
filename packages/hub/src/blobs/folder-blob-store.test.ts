import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { describeBlobStoreContract } from "./blob-store.contract.ts";
import { openBlobStore } from "./open-blob-store.ts";

const dir = mkdtempSync(join(tmpdir(), "vf-blobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeBlobStoreContract("folder", async () => openBlobStore(dir));

describe("the folder blob store", () => {
  it("keeps each blob as a plain file under its key, readable through a file:// URL of the folder", async () => {
    const own = join(dir, "plain");
    await openBlobStore(own).put("tarballs/ada/x.tgz", new Uint8Array([1, 2, 3]));
    expect([...readFileSync(join(own, "tarballs", "ada", "x.tgz"))]).toEqual([1, 2, 3]);
    expect(readdirSync(join(own, "tarballs", "ada"))).toEqual(["x.tgz"]); // no temp file left behind
    const reopened = openBlobStore(pathToFileURL(own).href);
    expect([...(await reopened.get("tarballs/ada/x.tgz"))!]).toEqual([1, 2, 3]);
  });
});
