/**
 * npm's search endpoint (`GET /npm/-/v1/search?text=&size=&from=`), the one `npm search` calls, over
 * the environments a caller may see: public ones, and private ones only with their owner's key.
 * The Hub measures no quality, popularity or maintenance: those scores are 0, and `searchScore` (with
 * `score.final`, the same scaled into 0..1) ranks by how well the text matches the package name.
 */
import { z } from "zod";
import type { Queryable } from "../db/database.ts";
import { latestOf } from "../store/versions-store.ts";

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

const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of the environments matching `query` that `context.viewer` may see, best match first. */
export async function searchPackages(
  db: Queryable,
  query: NpmSearchQuery,
  context: NpmSearchContext,
): Promise<NpmSearchResponse> {
  const terms = parseSearchText(query.text);
  // Every word must appear, as in the Hub's own search: $4 holds them as escaped ILIKE patterns.
  const filters = [
    context.viewer,
    terms.owner,
    terms.keywords,
    terms.words.map((word) => `%${escapeLike(word)}%`),
  ];
  const where = `where (e.visibility = 'public' or e.owner = $1::text)
      and ($2::text is null or e.owner = $2::text)
      and (cardinality($3::text[]) = 0 or e.tags && $3::text[])
      and not exists (select 1 from unnest($4::text[]) p
        where ('@' || e.owner || '/' || e.name || ' ' || e.description || ' ' || array_to_string(e.tags, ' '))
          not ilike p escape '\\')
      and exists (select 1 from versions v where v.env_id = e.id)`;
  // $5 holds the words: one equal to the name (or @owner/name) counts 10, each inside @owner/name 1.
  const relevance = `(case when e.name = any($5::text[]) or '@' || e.owner || '/' || e.name = any($5::text[])
      then 10 else 0 end)
    + (select count(*)::int from unnest($5::text[]) w where strpos('@' || e.owner || '/' || e.name, w) > 0)`;
  const [rows, counted] = await Promise.all([
    db.query<{
      id: number;
      owner: string;
      name: string;
      description: string;
      tags: string[];
      relevance: number;
    }>(
      `select e.id, e.owner, e.name, e.description, e.tags, ${relevance} as relevance
       from environments e ${where}
       order by relevance desc, e.updated_at desc, e.id desc limit $6 offset $7`,
      [...filters, terms.words, query.size, query.from],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from environments e ${where}`, filters),
  ]);
  const versions = await db.query<{
    env_id: number;
    semver: string;
    created_at: Date;
    pushed_by: string | null;
    homepage: unknown;
    repository: unknown;
  }>(
    `select v.env_id, v.semver, v.created_at, u.name as pushed_by,
       v.manifest->'homepage' as homepage, v.manifest->'repository' as repository
     from versions v left join users u on u.id = v.pushed_by where v.env_id = any($1::int[])`,
    [rows.map((r) => r.id)],
  );
  const objects = rows.map((env): NpmSearchObject => {
    const latest = latestOf(versions.filter((v) => v.env_id === env.id))!;
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
        date: latest.created_at.toISOString(),
        links,
        ...(latest.pushed_by ? { publisher: { username: latest.pushed_by } } : {}),
        maintainers: [{ username: env.owner }],
      },
      score: {
        final: env.relevance / (env.relevance + 1),
        detail: { quality: 0, popularity: 0, maintenance: 0 },
      },
      searchScore: env.relevance,
    };
  });
  return { objects, total: counted[0]!.n, time: new Date().toISOString() };
}
