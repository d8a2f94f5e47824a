/** Turns stored records into the API's response shapes (snake_case, ISO dates, install commands). */
import type { ApiKeyInfo } from "../api/schemas/account-schemas.ts";
import type { EnvInfo, EnvKind, EnvSummary, VersionInfo } from "../api/schemas/env-schemas.ts";
import type { ApiKeyRecord } from "../store/api-keys-store.ts";
import type { EnvironmentRecord } from "../store/environments-store.ts";
import type { VersionRecord } from "../store/versions-store.ts";

/** What a version's package.json says it holds (`vf.kind`); none: an environment. */
function manifestKind(manifest: Record<string, unknown>): EnvKind {
  const vf = manifest.vf as { kind?: unknown } | undefined;
  return vf?.kind === "taskset" ? "taskset" : "environment";
}

/** The API shape of a version. */
export function toVersionInfo(v: VersionRecord): VersionInfo {
  return {
    semver: v.semver,
    kind: manifestKind(v.manifest),
    content_hash: v.contentHash,
    tarball_sha256: v.tarballSha256,
    integrity: v.tarballSha512,
    size: v.tarballSize,
    file_count: v.fileCount,
    pushed_by: v.pushedBy,
    created_at: v.createdAt,
  };
}

/** The API shape of an environment in lists. */
export function toEnvSummary(env: EnvironmentRecord, latest: string | null): EnvSummary {
  return {
    id: `${env.owner}/${env.name}`,
    owner: env.owner,
    name: env.name,
    kind: env.kind,
    visibility: env.visibility,
    description: env.description,
    tags: env.tags,
    latest_version: latest,
    created_at: env.createdAt,
    updated_at: env.updatedAt,
  };
}

/**
 * The API shape of one environment, with install commands for a Hub at `origin`. npm's is scoped:
 * the owner's packages come from the Hub, everything they depend on (vf's packages, zod) from the
 * user's own registry, which `--registry HUB` would replace, so each dependency answered 404.
 */
export function toEnvInfo(env: EnvironmentRecord, latest: VersionRecord | null, origin: string): EnvInfo {
  const id = `${env.owner}/${env.name}`;
  return {
    ...toEnvSummary(env, latest?.semver ?? null),
    latest: latest ? toVersionInfo(latest) : null,
    readme: latest?.readme ?? "",
    install: {
      vf: `vf env install ${id}`,
      npm: `npm install @${id} --@${env.owner}:registry=${origin}/npm/`,
    },
  };
}

/** The API shape of a key in lists (never the key itself). */
export function toApiKeyInfo(k: ApiKeyRecord): ApiKeyInfo {
  return {
    prefix: k.prefix,
    name: k.name,
    scope: k.scope,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
  };
}
