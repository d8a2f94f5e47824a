/** Request and response bodies of environments and their versions. */
import { z } from "zod";

/** public: anyone may read; private: only the owner (everyone else gets 404). */
export const Visibility = z.enum(["public", "private"]);
export type Visibility = z.infer<typeof Visibility>;

/**
 * What a package holds (its package.json's `vf.kind`): an environment, which runs its own rollouts,
 * or a taskset, whose tasks an agent program (a harness) works on. A Hub that predates kinds sends
 * none: it held environments.
 */
export const EnvKind = z.enum(["environment", "taskset"]);
export type EnvKind = z.infer<typeof EnvKind>;

/** One version of an environment. */
export const VersionInfo = z.object({
  semver: z.string(),
  /** What this version's package holds. */
  kind: EnvKind.default("environment"),
  /** SHA-256 over the package files (docs/content-hash.md): the version's identity. */
  content_hash: z.string(),
  /** SHA-256 of the .tgz, checked by `vf env install`. */
  tarball_sha256: z.string(),
  /** npm's `dist.integrity` of the .tgz. */
  integrity: z.string(),
  size: z.number().int(),
  file_count: z.number().int(),
  pushed_by: z.string().nullable(),
  created_at: z.string(),
});
export type VersionInfo = z.infer<typeof VersionInfo>;

/** An environment in lists. */
export const EnvSummary = z.object({
  /** `owner/name` */
  id: z.string(),
  owner: z.string(),
  name: z.string(),
  /** What its latest version holds: an environment or a taskset. */
  kind: EnvKind.default("environment"),
  visibility: Visibility,
  description: z.string(),
  tags: z.array(z.string()),
  latest_version: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EnvSummary = z.infer<typeof EnvSummary>;

/** `GET /envs/{owner}/{name}`: the environment, its latest version, README and install commands. */
export const EnvInfo = EnvSummary.extend({
  latest: VersionInfo.nullable(),
  readme: z.string(),
  install: z.object({ vf: z.string(), npm: z.string() }),
});
export type EnvInfo = z.infer<typeof EnvInfo>;

/** Query of `GET /envs`. */
export const ListEnvsQuery = z.object({
  /** Words that must all appear in the id, description or tags. */
  q: z.string().max(200).optional(),
  owner: z.string().max(64).optional(),
  /** Only environments of this kind (only tasksets, say). */
  kind: EnvKind.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
});
export type ListEnvsQuery = z.infer<typeof ListEnvsQuery>;

/** Query of `POST /envs/{owner}/{name}/versions`. */
export const PushQuery = z.object({
  /** Set on creation (default public); when given for an existing environment, changes it. */
  visibility: Visibility.optional(),
});
export type PushQuery = z.infer<typeof PushQuery>;

/** A push either made a new version or found the same content already there: both succeed. */
export const PushResult = z.object({
  status: z.enum(["created", "unchanged"]),
  env: EnvSummary,
  version: VersionInfo,
  /** e.g. "already at version 1.2.0 (same content)". */
  message: z.string(),
});
export type PushResult = z.infer<typeof PushResult>;

/** `PATCH /envs/{owner}/{name}`. */
export const UpdateEnvRequest = z.object({ visibility: Visibility }).strict();
export type UpdateEnvRequest = z.infer<typeof UpdateEnvRequest>;

/** What a delete removed: `owner/name` or `owner/name@semver`. */
export const Deleted = z.object({ deleted: z.string() });
export type Deleted = z.infer<typeof Deleted>;

/** Query of the file browser: a path in the package and a cap on the bytes returned. */
export const InspectQuery = z.object({
  path: z.string().max(1000).default(""),
  max_bytes: z.coerce.number().int().min(1).max(500_000).default(100_000),
});
export type InspectQuery = z.infer<typeof InspectQuery>;

/** A folder listing or a file's (possibly truncated) content, browsed on the server. */
export const InspectResult = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("directory"),
    path: z.string(),
    entries: z.array(
      z.object({
        name: z.string(),
        path: z.string(),
        type: z.enum(["file", "directory"]),
        size: z.number().int(),
      }),
    ),
  }),
  z.object({
    kind: z.literal("file"),
    path: z.string(),
    size: z.number().int(),
    /** utf8 for text, base64 for binary files. */
    encoding: z.enum(["utf8", "base64"]),
    content: z.string(),
    truncated: z.boolean(),
  }),
]);
export type InspectResult = z.infer<typeof InspectResult>;
