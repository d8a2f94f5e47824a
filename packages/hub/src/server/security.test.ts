/**
 * The Hub's security properties, one test each: private environments are invisible (404, never 403),
 * keys are shown once and stored only as hashes, hostile tarballs and manifests are refused with the
 * offending entry or field named, failed sign-ins are rate-limited, sign-in redirects stay on the Hub,
 * SQL-injection strings are inert, and concurrent pushes of the same content make one version.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { packTarball } from "../package/package-tarball.ts";
import { rawTarEntry, rawTgz } from "../testing/tar-entries.ts";
import { createTestHub, jsonOf, samplePackage, sampleTarball, type TestHub } from "../testing/test-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

let hub: TestHub;
let ada: string;
let bob: string;
let hash: string;
beforeAll(async () => {
  hub = await createTestHub({ limits: { maxUnpackedBytes: 1024 * 1024, maxTarballBytes: 512 * 1024 } });
  ada = await hub.addUser("ada");
  bob = await hub.addUser("bob");
  const pushed = await jsonOf(
    await hub.call("POST", "/api/v1/envs/ada/hidden/versions?visibility=private", {
      key: ada,
      body: sampleTarball("hidden"),
    }),
  );
  hash = pushed.data.version.content_hash;
  const report = await jsonOf(
    await hub.call("POST", "/api/v1/reports", {
      key: ada,
      json: { run_id: "r1", env: "ada/hidden", content_hash: hash, model: "m", metadata: {}, row_count: 0 },
    }),
  );
  expect(report.data.id).toBe(1);
});
afterAll(() => hub.close());

const manifestTgz = (json: unknown) =>
  packTarball([
    { path: "package.json", data: Buffer.from(JSON.stringify(json)) },
    ...samplePackage("m").filter((f) => f.path !== "package.json"),
  ]);

describe("security", () => {
  it("hides a private environment from everyone but its owner: 404 everywhere, never 403", async () => {
    const paths = [
      "/api/v1/envs/ada/hidden",
      "/api/v1/envs/ada/hidden/versions",
      "/api/v1/envs/ada/hidden/versions/latest",
      "/api/v1/envs/ada/hidden/versions/1.0.0/tarball",
      "/api/v1/envs/ada/hidden/versions/1.0.0/files?path=index.js",
      "/api/v1/envs/ada/hidden/reports",
      "/api/v1/envs/ada/hidden/leaderboard",
      "/api/v1/reports/1",
      "/api/v1/reports/1/rows",
      "/npm/@ada%2fhidden",
      "/npm/@ada/hidden/-/hidden-1.0.0.tgz",
      "/ada/hidden",
      "/reports/1",
    ];
    for (const path of paths) {
      for (const key of [undefined, bob]) {
        const response = await hub.call("GET", path, key ? { key } : {});
        expect([path, response.status]).toEqual([path, 404]);
      }
      expect([path, (await hub.call("GET", path, { key: ada })).status]).toEqual([path, 200]);
    }
    const pushOver = await hub.call("DELETE", "/api/v1/envs/ada/hidden", { key: bob });
    expect(pushOver.status).toBe(404);
    const search = await jsonOf(await hub.call("GET", "/api/v1/envs?q=hidden", { key: bob }));
    expect(search.data.items).toEqual([]);
    const report = await hub.call("POST", "/api/v1/reports", {
      key: bob,
      json: { run_id: "x", env: "ada/hidden", content_hash: hash, model: "m", metadata: {}, row_count: 0 },
    });
    expect(report.status).toBe(404);
  });

  it("shows a new key once and stores only its SHA-256", async () => {
    const created = await jsonOf(
      await hub.call("POST", "/api/v1/me/keys", { key: ada, json: { name: "ci", scope: "read" } }),
    );
    const key: string = created.data.key;
    expect(key).toMatch(/^vf_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    const rows = await hub.context.db.query<Record<string, unknown>>(
      "select * from api_keys where prefix = $1",
      [created.data.prefix],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify(rows[0])).not.toContain(key.slice(12));
    const listed = await hub.call("GET", "/api/v1/me/keys", { key: ada });
    const text = await listed.text();
    expect(text).toContain(created.data.prefix);
    expect(text).not.toContain(key.slice(12));
    expect((await jsonOf(await hub.call("GET", "/api/v1/me", { key }))).data.key.scope).toBe("read");
    await hub.call("DELETE", `/api/v1/me/keys/${created.data.prefix}`, { key: ada });
    expect((await hub.call("GET", "/api/v1/me", { key })).status).toBe(401);
  });

  it("refuses tarballs with traversal, absolute paths, symlinks, hardlinks or over the size limit", async () => {
    const pkg = rawTarEntry(
      "package/package.json",
      "0",
      Buffer.from(JSON.stringify({ name: "evil", version: "1.0.0", vf: { id: "evil" } })),
    );
    const cases: [Uint8Array, number, string, RegExp][] = [
      [
        rawTgz(pkg, rawTarEntry("package/../../../tmp/pwned", "0", Buffer.from("x"))),
        422,
        "invalid_package",
        /'\.\.' segment/,
      ],
      [
        rawTgz(pkg, rawTarEntry("/etc/cron.d/pwned", "0", Buffer.from("x"))),
        422,
        "invalid_package",
        /absolute path/,
      ],
      [
        rawTgz(pkg, rawTarEntry("package/link", "2", new Uint8Array(), "/etc/passwd")),
        422,
        "invalid_package",
        /is a symlink/,
      ],
      [
        rawTgz(pkg, rawTarEntry("package/hard", "1", new Uint8Array(), "package/package.json")),
        422,
        "invalid_package",
        /is a hardlink/,
      ],
      [
        rawTgz(pkg, rawTarEntry("package/big.bin", "0", new Uint8Array(2 * 1024 * 1024))),
        413,
        "payload_too_large",
        /unpacks to over/,
      ],
    ];
    for (const [body, status, code, message] of cases) {
      const response = await hub.call("POST", "/api/v1/envs/ada/evil/versions", { key: ada, body });
      expect(response.status).toBe(status);
      const { error } = await jsonOf(response);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    }
    expect((await hub.call("GET", "/api/v1/envs/ada/evil", { key: ada })).status).toBe(404);
  });

  it("names the field of a malformed manifest", async () => {
    const cases: [unknown, string][] = [
      [{ name: "m", version: "1.0.0" }, "vf"],
      [{ name: "m", version: "1.0.0", vf: { id: "Bad Id" } }, "vf.id"],
      [{ name: "m", version: "one", vf: { id: "m" } }, "version"],
      [{ name: "m", version: "1.0.0", vf: { id: "m", numExamples: "ten" } }, "vf.numExamples"],
      [
        { name: "m", version: "1.0.0", vf: { id: "m" }, dependencies: { "@vf-rl/core": "*" } },
        "dependencies.@vf-rl/core",
      ],
    ];
    for (const [json, field] of cases) {
      const { error } = await jsonOf(
        await hub.call("POST", "/api/v1/envs/ada/m/versions", { key: ada, body: manifestTgz(json) }),
      );
      expect(error).toMatchObject({ code: "validation_failed", details: { field } });
      expect(error.message).toContain(`"${field}"`);
    }
  });

  it("rate-limits repeated failed sign-ins, even when the password is then right", async () => {
    const signIn = (password: string) =>
      hub.app.request("http://hub.test/login", {
        method: "POST",
        body: new URLSearchParams({ name: "bob", password, next: "/" }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    for (let i = 0; i < 5; i++) expect((await signIn("wrong")).status).toBe(401);
    const locked = await signIn("pw-bob");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await locked.text()).toContain("Too many failed sign-ins");
  });

  it("sends a browser only to a page of this Hub after sign-in, whatever next says", async () => {
    const signIn = (next: string) =>
      hub.app.request("http://hub.test/login", {
        method: "POST",
        body: new URLSearchParams({ name: "ada", password: "pw-ada", next }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    // Where the browser goes: the Location resolved as a browser resolves it (the WHATWG URL parser
    // reads `\` as `/` and drops tabs and newlines).
    const landing = async (response: Response) => {
      expect(response.status).toBe(303);
      const url = new URL(response.headers.get("location")!, "http://hub.test/login");
      return url.origin === "http://hub.test" ? url.pathname + url.search : url.href;
    };
    const offSite = [
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      " //evil.example",
      "https://evil.example",
      "https:evil.example",
      "javascript:alert(1)",
      "/.//evil.example",
      "/./\\evil.example",
    ];
    for (const next of offSite) expect([next, await landing(await signIn(next))]).toEqual([next, "/"]);
    expect(await landing(await signIn("/ada/hidden?tab=reports"))).toBe("/ada/hidden?tab=reports");
    expect(await landing(await signIn("/%5Cevil.example"))).toBe("/%5Cevil.example");

    // The same tricks percent-encoded in the sign-in link reach the form's hidden field decoded.
    const linked = ["/%5Cevil.example", "%2F%5Cevil.example", "/%09/evil.example", "%2F%2Fevil.example"];
    for (const query of linked) {
      const page = await (await hub.app.request(`http://hub.test/login?next=${query}`)).text();
      const next = /name="next" value="([^"]*)"/
        .exec(page)![1]!
        .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
      expect([query, await landing(await signIn(next))]).toEqual([query, "/"]);
    }
  });

  it("rate-limits a client that keeps sending invalid API keys", async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await hub.call("GET", "/api/v1/me", { key: `vf_guess${i}` })).status;
    expect(last).toBe(429);
  });

  it("treats SQL-injection strings as plain data in search, names and report fields", async () => {
    const evil = "x'); drop table environments; --";
    const search = await hub.call("GET", `/api/v1/envs?q=${encodeURIComponent(evil)}`);
    expect((await jsonOf(search)).data.items).toEqual([]);
    const byName = await hub.call("GET", `/api/v1/envs/ada/${encodeURIComponent(evil)}`);
    expect(byName.status).toBe(404);
    await hub.call("POST", "/api/v1/envs/ada/public-one/versions", {
      key: ada,
      body: sampleTarball("public-one"),
    });
    const version = await jsonOf(await hub.call("GET", "/api/v1/envs/ada/public-one/versions/latest"));
    const report = await jsonOf(
      await hub.call("POST", "/api/v1/reports", {
        key: ada,
        json: {
          run_id: evil,
          env: "ada/public-one",
          content_hash: version.data.content_hash,
          model: `${evil}' or '1'='1`,
          metadata: { note: evil },
          row_count: 0,
        },
      }),
    );
    expect(report.data).toMatchObject({
      run_id: evil,
      model: `${evil}' or '1'='1`,
      metadata: { note: evil },
    });
    const count = await hub.context.db.query<{ n: number }>("select count(*)::int as n from environments");
    expect(count[0]!.n).toBe(2);
  });

  it("makes one version from concurrent pushes of the same content", async () => {
    const body = sampleTarball("raced", "1.0.0");
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        hub.call("POST", "/api/v1/envs/ada/raced/versions", { key: ada, body }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const versions = await jsonOf(await hub.call("GET", "/api/v1/envs/ada/raced/versions"));
    expect(versions.data.items).toHaveLength(1);
  });
});
