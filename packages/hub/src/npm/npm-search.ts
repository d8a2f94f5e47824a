/**
 * npm's search endpoint (`GET /npm/-/v1/search?text=&size=&from=`), the one `npm search` calls, over
 * the environments a caller may see: public ones, and private ones only with their owner's key.
 * The Hub measures no quality, popularity or maintenance: those scores are 0, and `searchScore` (with
 * `score.final`, the same scaled into 0..1) ranks by how well the text matches the package name.
 */
import { z } from "zod";
import type { Queryable } from "../db/database.ts";
import { searchPublishedEnvironments } from "../store/environments-store.ts";
import { latestOf, listVersionSummaries } from "../store/versions-store.ts";

/** The query npm sends. `quality`, `popularity` and `maintenance` are weights the Hub has no use for. */
export const NpmSearchQuery = z.object({
  /**
   * Words that must each appear in `@owner/name`, the description or the tags (case-insensitive), and
   * npm's qualifiers `scope:`, `author:` or `maintainer:` (the owner) and `keywords:a,b` (any tag).
   */
  text: z.string().max(500).default(""),
  size: z.coerce.number().int().min(1).max(250).default(20),
  from: z.coerce.number().int().min(0).max(100_000).default(0),
  quality: z.coerce.number().optional(),
  popularity: z.coerce.number().optional(),
  maintenance: z.coerce.number().optional(),
});
export type NpmSearchQuery = z.infer<typeof NpmSearchQuery>;

/** A user as npm names one (the Hub keeps no e-mail addresses). */
export const NpmUser = z.object({ username: z.string() });
export type NpmUser = z.infer<typeof NpmUser>;

/** One search hit: the package's latest version, as `npm search` prints it. */
export const NpmSearchObject = z.object({
  package: z.object({
    /** `@owner/name` */
    name: z.string(),
    /** The owner, as npm's scope. */
    scope: z.string(),
    /** Highest semver pushed. */
    version: z.string(),
    description: z.string(),
    /** The environment's tags. */
    keywords: z.array(z.string()),
    /** When that version was pushed (ISO 8601). */
    date: z.string(),
    /** `npm`: the environment's Hub page; `homepage`, `repository` from its package.json when set. */
    links: z.record(z.string(), z.string()),
    /** Who pushed that version. */
    publisher: NpmUser.optional(),
    /** The owner (npm's CLI lists and filters by maintainers). */
    maintainers: z.array(NpmUser),
  }),
  score: z.object({
    final: z.number(),
    detail: z.object({ quality: z.number(), popularity: z.number(), maintenance: z.number() }),
  }),
  searchScore: z.number(),
});
export type NpmSearchObject = z.infer<typeof NpmSearchObject>;

/** The reply: one page of hits, best first, and how many match in all. */
export const NpmSearchResponse = z.object({
  objects: z.array(NpmSearchObject),
  total: z.number().int(),
  /** When the search ran (ISO 8601). */
  time: z.string(),
});
export type NpmSearchResponse = z.infer<typeof NpmSearchResponse>;

/** What `searchPackages` needs besides the query. */
export interface NpmSearchContext {
  /** The caller's user name, null when anonymous: their own private environments are included. */
  viewer: string | null;
  /** The Hub's public origin, for the `links.npm` page URLs. */
  origin: string;
}

interface Terms {
  words: string[];
  owner: string | null;
  keywords: string[];
}

/** Splits npm's search text into plain words and its qualifiers, all lower-cased. */
export function parseSearchText(text: string): Terms {
  const terms: Terms = { words: [], owner: null, keywords: [] };
  for (const token of text.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 16)) {
    const qualifier = /^(scope|author|maintainer|keywords):(.*)$/.exec(token);
    if (!qualifier) terms.words.push(token);
    else if (qualifier[1] === "keywords") terms.keywords.push(...qualifier[2]!.split(",").filter(Boolean));
    else terms.owner = qualifier[2]!.replace(/^@/, "");
  }
  return terms;
}

/** One page of the environments matching `query` that `context.viewer` may see, best match first. */
export async function searchPackages(
  db: Queryable,
  query: NpmSearchQuery,
  context: NpmSearchContext,
): Promise<NpmSearchResponse> {
  const terms = parseSearchText(query.text);
  const { hits, total } = await searchPublishedEnvironments(db, {
    viewer: context.viewer,
    owner: terms.owner,
    keywords: terms.keywords,
    words: terms.words,
    size: query.size,
    from: query.from,
  });
  const versions = await listVersionSummaries(
    db,
    hits.map((hit) => hit.id),
  );
  const objects = hits.map((env): NpmSearchObject => {
    const latest = latestOf(versions.filter((v) => v.envId === env.id))!;
    const links: Record<string, string> = { npm: `${context.origin}/${env.owner}/${env.name}` };
    if (typeof latest.homepage === "string") links.homepage = latest.homepage;
    const repository =
      typeof latest.repository === "object" && latest.repository !== null
        ? (latest.repository as { url?: unknown }).url
        : latest.repository;
    if (typeof repository === "string") links.repository = repository;
    return {
      package: {
        name: `@${env.owner}/${env.name}`,
        scope: env.owner,
        version: latest.semver,
        description: env.description,
        keywords: env.tags,
        date: latest.createdAt.toISOString(),
        links,
        ...(latest.pushedBy ? { publisher: { username: latest.pushedBy } } : {}),
        maintainers: [{ username: env.owner }],
      },
      score: {
        final: env.relevance / (env.relevance + 1),
        detail: { quality: 0, popularity: 0, maintenance: 0 },
      },
      searchScore: env.relevance,
    };
  });
  return { objects, total, time: new Date().toISOString() };
}
