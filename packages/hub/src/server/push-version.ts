/**
 * A push, server side: check the pusher may write there (before reading the body), receive the
 * tarball into a temporary folder and validate it and its manifest from there (see
 * staged-tarball.ts), hash the files by the shared spec, store the tarball by its sha256, then
 * record the version in one transaction that locks the environment,
 * so the same content pushed twice (or at once) makes one version and the second push is told
 * "unchanged", a success. Everything that can refuse a push is checked before the blob is stored,
 * except a taken version label (known only inside the transaction): then, or when the transaction
 * fails, the blob is removed again unless another version uses it.
 */
import type { PushResult, Visibility } from "../api/schemas/env-schemas.ts";
import { tarballKey } from "../blobs/blob-store.ts";
import { HubError } from "../hub-error.ts";
import { checkManifestSize, readPackageManifest } from "../package/package-manifest.ts";
import { lockOrCreateEnvironment, updateEnvironment } from "../store/environments-store.ts";
import { insertVersion, latestOf, listVersions } from "../store/versions-store.ts";
import { toEnvSummary, toVersionInfo } from "./api-views.ts";
import { dropUnusedTarball } from "./drop-unused-tarball.ts";
import { canWrite, invalidateEnv } from "./env-access.ts";
import type { HubContext, Principal } from "./hub-context.ts";
import { type StagedTarball, stageTarball } from "./staged-tarball.ts";

/** What one push carries. */
export interface PushInput {
  owner: string;
  name: string;
  /** The request body: the .tgz, read as it arrives. */
  upload: ReadableStream<Uint8Array> | null;
  visibility?: Visibility;
  /** The hash the client computed; a mismatch means client and server disagree on the spec. */
  clientHash?: string;
}

/** Stores the pushed version (or finds it already there). */
export async function pushVersion(hub: HubContext, pusher: Principal, input: PushInput): Promise<PushResult> {
  const id = `${input.owner}/${input.name}`;
  if (!canWrite(input.owner, pusher)) {
    throw new HubError(
      "forbidden",
      `${pusher.userName} cannot push to ${id}: push under your own name (${pusher.userName}/${input.name})`,
    );
  }
  const staged = await stageTarball(input.upload, { tempDir: hub.uploadDir, limits: hub.limits });
  try {
    return await recordPush(hub, pusher, input, staged);
  } finally {
    await staged.dispose();
  }
}

async function recordPush(
  hub: HubContext,
  pusher: Principal,
  input: PushInput,
  staged: StagedTarball,
): Promise<PushResult> {
  const id = `${input.owner}/${input.name}`;
  const manifestFile = staged.files.find((f) => f.path === "package.json")!;
  checkManifestSize(manifestFile.size);
  const manifest = readPackageManifest([{ path: "package.json", data: await staged.readFile(manifestFile) }]);
  if (manifest.name !== input.name) {
    throw new HubError(
      "validation_failed",
      `package.json field "name" is "${manifest.name}" but the push is to ${id}: make them match`,
      {
        field: "name",
      },
    );
  }
  if (manifest.scope !== null && manifest.scope !== input.owner) {
    throw new HubError(
      "validation_failed",
      `package.json field "name" has scope @${manifest.scope} but the push is to ${id}: rename it @${input.owner}/${input.name}`,
      { field: "name" },
    );
  }
  const hash = staged.contentHash;
  if (input.clientHash && input.clientHash !== hash) {
    throw new HubError(
      "hash_mismatch",
      `the client computed content hash ${input.clientHash} but the server computed ${hash}: update vf on this machine`,
      { server_hash: hash },
    );
  }
  const readmeFile = staged.files.find((f) => /^readme(\.md)?$/i.test(f.path));
  const readme = readmeFile ? (await staged.readFile(readmeFile)).toString("utf8") : "";
  if (readme.includes("\0")) {
    throw new HubError(
      "invalid_package",
      `${readmeFile!.path} holds a NUL byte: the Hub shows the README as text, which cannot hold one; remove it`,
      { field: readmeFile!.path },
    );
  }
  const tarballSha256 = staged.sha256;
  await hub.blobs.putFile(tarballKey(tarballSha256), staged);
  const outcome = await hub.db
    .transaction(async (tx) => {
      const { env } = await lockOrCreateEnvironment(tx, {
        owner: input.owner,
        name: input.name,
        visibility: input.visibility ?? "public",
      });
      const result = await insertVersion(tx, {
        envId: env.id,
        semver: manifest.version,
        contentHash: hash,
        tarballSha256,
        tarballSha512: `sha512-${staged.sha512}`,
        tarballSha1: staged.sha1,
        tarballSize: staged.size,
        fileCount: staged.files.length,
        manifest: manifest.json,
        readme,
        pushedBy: pusher.userId,
      });
      if (result.type === "taken") return result;
      const latest = latestOf(await listVersions(tx, env.id));
      const isLatest = latest?.id === result.version.id;
      const visibilityChanges = input.visibility !== undefined && input.visibility !== env.visibility;
      if ((result.type === "created" && isLatest) || visibilityChanges) {
        await updateEnvironment(tx, env.id, {
          description: isLatest ? manifest.description : env.description,
          tags: isLatest ? manifest.tags : env.tags,
          ...(isLatest ? { kind: manifest.kind } : {}),
          ...(input.visibility ? { visibility: input.visibility } : {}),
        });
      }
      return {
        ...result,
        env: {
          ...env,
          visibility: input.visibility ?? env.visibility,
          kind: result.type === "created" && isLatest ? manifest.kind : env.kind,
        },
        latest: latest?.semver ?? null,
      };
    })
    .catch(async (error: unknown) => {
      await dropUnusedTarball(hub, tarballSha256).catch((cleanup: unknown) =>
        console.error(`vf hub: could not remove the blob of a failed push (${tarballSha256}):`, cleanup),
      );
      throw error;
    });
  invalidateEnv(hub, input.owner, input.name);
  if (outcome.type === "taken") {
    await dropUnusedTarball(hub, tarballSha256);
    throw new HubError(
      "version_exists",
      `${id}@${manifest.version} already exists with other content (${outcome.version.contentHash.slice(0, 12)}): bump the version (--bump patch)`,
      { semver: manifest.version, content_hash: outcome.version.contentHash },
    );
  }
  const version = toVersionInfo(outcome.version);
  return {
    status: outcome.type,
    env: toEnvSummary(outcome.env, outcome.latest),
    version,
    message:
      outcome.type === "created"
        ? `pushed ${id}@${version.semver} (${version.content_hash.slice(0, 12)})`
        : `${id} is already at version ${version.semver} with this content (${version.content_hash.slice(0, 12)}); nothing to push`,
  };
}
