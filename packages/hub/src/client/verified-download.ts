/**
 * Downloads a version and proves it is the one asked for: the tarball's SHA-256 must equal the
 * version's `tarball_sha256`, it is unpacked with every safety check (no links, no traversal, size
 * limits), and the content hash of the unpacked files must equal the version's `content_hash`.
 */
import { createHash } from "node:crypto";
import type { VersionInfo } from "../api/schemas/env-schemas.ts";
import { HubError } from "../hub-error.ts";
import { contentHash, type PackageFile } from "../package/content-hash.ts";
import { unpackTarball } from "../package/package-tarball.ts";
import type { EnvSpec } from "./env-spec.ts";
import type { HubClient } from "./hub-client.ts";

/** A downloaded, verified version. */
export interface VerifiedPackage {
  version: VersionInfo;
  tarball: Uint8Array;
  files: PackageFile[];
}

/** Downloads `spec` and verifies it (see the file comment); `hash_mismatch` when anything differs. */
export async function downloadVerified(client: HubClient, spec: EnvSpec): Promise<VerifiedPackage> {
  const version = await client.version(spec.owner, spec.name, spec.ref);
  // Ask by content hash, so a version re-labelled between the two requests cannot slip in.
  const tarball = await client.downloadTarball(spec.owner, spec.name, version.content_hash);
  const id = `${spec.owner}/${spec.name}@${version.semver}`;
  const sha256 = createHash("sha256").update(tarball).digest("hex");
  if (sha256 !== version.tarball_sha256) {
    throw new HubError(
      "hash_mismatch",
      `the download of ${id} has sha256 ${sha256}, not ${version.tarball_sha256}: retry; if it persists the Hub's store is damaged`,
    );
  }
  const files = unpackTarball(tarball);
  const hash = contentHash(files);
  if (hash !== version.content_hash) {
    throw new HubError(
      "hash_mismatch",
      `the files of ${id} hash to ${hash}, not ${version.content_hash}: update vf, or report it to the Hub's admin`,
    );
  }
  return { version, tarball, files };
}
