import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { describeBlobStoreContract } from "./blob-store.contract.ts";
import { openBlobStore } from "./open-blob-store.ts";

const dir = mkdtempSync(join(tmpdir(), "vf-blobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeBlobStoreContract("folder", async () => openBlobStore(dir));
