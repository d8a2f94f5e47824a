/**
 * npm's search endpoint in-process: the reply shape npm reads, ranking and paging, npm's qualifiers,
 * visibility per caller, and npm-shaped errors (a readable `error` string) on every /npm path.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { packTarball } from "../package/package-tarball.ts";
import { createTestHub, type JsonBody, jsonOf, samplePackage, type TestHub } from "../testing/test-hub.ts";
import { NpmSearchResponse } from "./npm-search.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

let hub: TestHub;
let ada: string;
let bob: string;

/** Pushes `owner/name` at `version` with this package.json description, tags and extra fields. */
async function push(
  key: string,
  id: string,
  options: { version?: string; description: string; tags: string[]; visibility?: string; extra?: object },
): Promise<void> {
  const [owner, name] = id.split("/") as [string, string];
  const files = samplePackage(name, options.version).map((file) => {
    if (file.path !== "package.json") return file;
    const json = JSON.parse(Buffer.from(file.data).toString("utf8"));
    const manifest = {
      ...json,
      ...options.extra,
      description: options.description,
      vf: { ...json.vf, description: options.description, tags: options.tags },
    };
    return { path: file.path, data: Buffer.from(JSON.stringify(manifest)) };
  });
  const visibility = options.visibility ?? "public";
  const response = await hub.call("POST", `/api/v1/envs/${owner}/${name}/versions?visibility=${visibility}`, {
    key,
    body: packTarball(files),
  });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  hub = await createTestHub();
  ada = await hub.addUser("ada");
  bob = await hub.addUser("bob");
  const wordle = {
    description: "Guess the five-letter word",
    tags: ["games", "words"],
    extra: {
      homepage: "https://example.org/wordle",
      repository: { url: "git+https://example.org/wordle.git" },
    },
  };
  await push(ada, "ada/wordle", { ...wordle, version: "1.2.0" });
  await push(ada, "ada/wordle", { ...wordle, version: "1.0.0" });
  await push(ada, "ada/word-chain", { description: "Chain words by their last letter", tags: ["words"] });
  await push(ada, "ada/secret-words", {
    description: "Private word lists",
    tags: ["words"],
    visibility: "private",
  });
  await push(bob, "bob/wordsmith", { description: "Write with tools", tags: ["writing"] });
  await push(bob, "bob/math", { description: "Grade-school math", tags: ["math"] });
});
afterAll(() => hub.close());

/** The search reply for `query` as `key` sees it, checked against npm's shape. */
async function search(query: Record<string, string>, key?: string): Promise<NpmSearchResponse> {
  const response = await hub.call(
    "GET",
    `/npm/-/v1/search?${new URLSearchParams(query)}`,
    key ? { key } : {},
  );
  expect(response.status).toBe(200);
  return NpmSearchResponse.parse(await response.json());
}

const names = (reply: NpmSearchResponse) => reply.objects.map((o) => o.package.name);

describe("npm search endpoint", () => {
  it("answers the shape npm reads, with the latest version, keywords, links and publisher", async () => {
    const reply = await search({ text: "wordle" });
    expect(reply.total).toBe(1);
    expect(reply.objects[0]).toEqual({
      package: {
        name: "@ada/wordle",
        scope: "ada",
        version: "1.2.0",
        description: "Guess the five-letter word",
        keywords: ["games", "words"],
        date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        links: {
          npm: "http://hub.test/ada/wordle",
          homepage: "https://example.org/wordle",
          repository: "git+https://example.org/wordle.git",
        },
        publisher: { username: "ada" },
        maintainers: [{ username: "ada" }],
      },
      score: { final: expect.any(Number), detail: { quality: 0, popularity: 0, maintenance: 0 } },
      searchScore: 11,
    });
    expect(Date.parse(reply.time)).not.toBeNaN();
  });

  it("puts an exact name first, and pages with size and from over a stable total", async () => {
    expect(names(await search({ text: "word-chain" }))[0]).toBe("@ada/word-chain");
    const all = await search({ text: "word", size: "20" });
    expect(all.total).toBe(3);
    expect(names(all).sort()).toEqual(["@ada/word-chain", "@ada/wordle", "@bob/wordsmith"]);
    const first = await search({ text: "word", size: "2", from: "0" });
    const second = await search({ text: "word", size: "2", from: "2" });
    expect([first.total, second.total]).toEqual([3, 3]);
    expect([...names(first), ...names(second)]).toEqual(names(all));
    expect(await search({ text: "word", from: "10" })).toMatchObject({ objects: [], total: 3 });
  });

  it("understands npm's qualifiers: keywords:, scope:, author: and maintainer:", async () => {
    expect(names(await search({ text: "keywords:words" })).sort()).toEqual([
      "@ada/word-chain",
      "@ada/wordle",
    ]);
    expect(names(await search({ text: "scope:@bob" })).sort()).toEqual(["@bob/math", "@bob/wordsmith"]);
    expect(names(await search({ text: "author:bob grade" }))).toEqual(["@bob/math"]);
    expect(names(await search({ text: "maintainer:ada keywords:games" }))).toEqual(["@ada/wordle"]);
    expect(names(await search({ text: "100%_off" }))).toEqual([]);
  });

  it("finds a private environment only for its owner's key", async () => {
    expect((await search({ text: "secret" })).total).toBe(0);
    expect((await search({ text: "secret" }, bob)).total).toBe(0);
    expect(names(await search({ text: "secret" }, ada))).toEqual(["@ada/secret-words"]);
    expect((await search({ text: "keywords:words" }, ada)).total).toBe(3);
  });

  it("answers bad queries and unknown /npm paths with a readable error string, not [object Object]", async () => {
    const cases: [string, string, number, RegExp][] = [
      ["GET", "/npm/-/v1/search?text=a&size=0", 422, /query field "size": /],
      ["GET", "/npm/-/whoami", 404, /the Hub's npm registry has no GET \/npm\/-\/whoami/],
      ["PUT", "/npm/@ada%2fwordle", 404, /has no PUT \/npm\/@ada%2fwordle.*publish with vf env push/],
      ["GET", "/npm/@ada/nope", 404, /environment ada\/nope was not found/],
      ["GET", "/npm/@ada/secret-words", 404, /environment ada\/secret-words was not found/],
      ["GET", "/npm/lodash", 404, /no package at \/npm\/lodash: packages are @owner\/name/],
    ];
    for (const [method, path, status, message] of cases) {
      const response = await hub.call(method, path);
      const body: JsonBody = await jsonOf(response);
      expect([path, response.status]).toEqual([path, status]);
      expect(typeof body.error).toBe("string");
      expect(body.error).toMatch(message);
      expect(body.code).toBe(status === 404 ? "not_found" : "validation_failed");
    }
  });
});
