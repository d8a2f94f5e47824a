import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeBlobStoreContract } from "./blob-store.contract.ts";
import { openBlobStore } from "./open-blob-store.ts";

describeBlobStoreContract("folder", async () => openBlobStore(mkdtempSync(join(tmpdir(), "vf-blobs-"))));
