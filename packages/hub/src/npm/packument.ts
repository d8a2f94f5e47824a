/**
 * npm registry documents for an environment: the packument (every version's manifest with its
 * `dist`: tarball URL, sha512 `integrity` and sha1 `shasum`) and `dist-tags.latest`. The package is
 * always served as `@owner/name`, whatever scope its package.json carries.
 */
import type { EnvSnapshot } from "../server/env-access.ts";

/** The tarball file name npm expects: `<name>-<version>.tgz`. */
export function tarballFileName(name: string, version: string): string {
  return `${name}-${version}.tgz`;
}

/** The packument of `snapshot` for a registry at `registryUrl` (ending in `/npm`). */
export function buildPackument(snapshot: EnvSnapshot, registryUrl: string): Record<string, unknown> {
  const { env, versions, latest } = snapshot;
  const id = `@${env.owner}/${env.name}`;
  const time: Record<string, string> = { created: env.createdAt, modified: env.updatedAt };
  const docs: Record<string, unknown> = {};
  for (const v of versions) {
    time[v.semver] = v.createdAt;
    docs[v.semver] = {
      ...v.manifest,
      name: id,
      version: v.semver,
      _id: `${id}@${v.semver}`,
      dist: {
        tarball: `${registryUrl}/${id}/-/${tarballFileName(env.name, v.semver)}`,
        integrity: v.tarballSha512,
        shasum: v.tarballSha1,
      },
    };
  }
  return {
    _id: id,
    name: id,
    description: env.description,
    "dist-tags": latest ? { latest: latest.semver } : {},
    versions: docs,
    time,
  };
}
