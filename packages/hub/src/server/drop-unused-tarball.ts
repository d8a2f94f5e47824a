/**
 * Removes a tarball's blob once no version refers to it: after a version or environment is deleted,
 * and after a push that stored the blob was then refused, so a refusal leaves nothing behind.
 */
import { tarballKey } from "../blobs/blob-store.ts";
import { isTarballUsed } from "../store/versions-store.ts";
import type { HubContext } from "./hub-context.ts";

/** Deletes the blob of `sha256` when no version row names it; true when it was deleted. */
export async function dropUnusedTarball(hub: HubContext, sha256: string): Promise<boolean> {
  if (await isTarballUsed(hub.db, sha256)) return false;
  await hub.blobs.delete(tarballKey(sha256));
  return true;
}
