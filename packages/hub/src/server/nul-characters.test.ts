/**
 * A NUL character (U+0000) wherever a request can carry one is answered `400 bad_request` saying where
 * it was (in a pushed package's manifest or README: 422 naming the field or file), never a 500 from
 * the database, which cannot store or search text holding one. One test per way in: the URL's query,
 * its path, JSON bodies, web forms, a pushed package.
 */
import { createHash, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tarballKey } from "../blobs/blob-store.ts";
import { packTarball } from "../package/package-tarball.ts";
import { createTestHub, jsonOf, samplePackage, sampleTarball, type TestHub } from "../testing/test-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

let hub: TestHub;
let ada: string;
let hash: string;
beforeAll(async () => {
  hub = await createTestHub();
  ada = await hub.addUser("ada");
  const pushed = await jsonOf(
    await hub.call("POST", "/api/v1/envs/ada/one/versions", { key: ada, body: sampleTarball("one") }),
  );
  hash = pushed.data.version.content_hash;
});
afterAll(() => hub.close());

/** The status and error message of a reply, in whichever shape it came: API, npm, or a web page. */
async function refusal(response: Response): Promise<[number, string]> {
  const text = await response.text();
  if (!text.startsWith("{")) {
    const message = /<p>([^<]*)<\/p>/.exec(text)?.[1] ?? text;
    return [response.status, message.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))];
  }
  const { error } = JSON.parse(text);
  return [response.status, typeof error === "string" ? error : error.message];
}

const form = (path: string, fields: Record<string, string>) =>
  hub.app.request(`http://hub.test${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });

describe("NUL characters in requests", () => {
  it("answers a NUL in a query 400 naming the parameter: the API, npm search, the web pages", async () => {
    const queries: [string, string][] = [
      ["/api/v1/envs?q=%00", "q"],
      ["/api/v1/envs?q=math%00", "q"],
      ["/api/v1/envs?owner=%00", "owner"],
      ["/npm/-/v1/search?text=%00", "text"],
      ["/npm/-/v1/search?text=scope:ada%00", "text"],
      ["/npm/-/v1/search?text=keywords:math,%00", "text"],
      ["/api/v1/envs/ada/one/versions/1.0.0/files?path=index.js%00", "path"],
      ["/?q=%00", "q"],
      ["/login?next=/%00", "next"],
    ];
    for (const [path, field] of queries) {
      const [status, message] = await refusal(await hub.call("GET", path));
      expect([path, status]).toEqual([path, 400]);
      expect(message).toBe(
        `query field "${field}" holds a NUL character (%00): nothing on the Hub is named or written with one, so remove it`,
      );
    }
  });

  it("answers a NUL in a path 400 saying so: environments, owners, reports, packuments, keys", async () => {
    const paths: [string, string][] = [
      ["GET", "/api/v1/envs/ada/one%00"],
      ["GET", "/api/v1/envs/ada%00/one"],
      ["GET", "/api/v1/envs/ada/one%00/reports"],
      ["GET", "/api/v1/envs/ada/one%00/leaderboard"],
      ["GET", "/api/v1/envs/ada/one/versions/1.0.0%00"],
      ["DELETE", "/api/v1/me/keys/vf_%00"],
      ["GET", "/npm/@ada%2fone%00"],
      ["GET", "/ada/one%00"],
      ["GET", "/ada%00"],
      ["GET", "/reports/1%00"],
    ];
    for (const [method, path] of paths) {
      const [status, message] = await refusal(await hub.call(method, path, { key: ada }));
      expect([path, status]).toEqual([path, 400]);
      expect(message).toMatch(/^the path \S+ holds a NUL character \(%00\): no owner, name, version or page/);
    }
  });

  it("answers a NUL in a JSON body 400 naming the field: key names, reports and their rows, logins", async () => {
    const refused = async (path: string, json: unknown, field: string) => {
      const [status, message] = await refusal(await hub.call("POST", path, { key: ada, json }));
      expect([path, field, status]).toEqual([path, field, 400]);
      expect(message).toBe(
        `body field "${field}" holds a NUL character (\\u0000): nothing on the Hub is named or written with one, so remove it`,
      );
    };
    await refused("/api/v1/me/keys", { name: "laptop\0", scope: "read" }, "name");
    const report = { run_id: "r1", env: "ada/one", content_hash: hash, model: "m", row_count: 1 };
    await refused("/api/v1/reports", { ...report, model: "m\0" }, "model");
    await refused(
      "/api/v1/reports",
      { ...report, metadata: { env_args: { "x\0": 1 } } },
      "metadata.env_args.x\0",
    );
    const publicKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .publicKey.export({ type: "spki", format: "pem" })
      .toString();
    await refused("/api/v1/auth/device", { client_name: "vf\0", public_key: publicKey }, "client_name");

    const opened = await jsonOf(
      await hub.call("POST", "/api/v1/reports", { key: ada, json: { ...report, metadata: {} } }),
    );
    expect(opened.data.status).toBe("uploading");
    const row = {
      example_id: 0,
      prompt: [],
      completion: [{ role: "assistant", content: "a\0b" }],
      reward: 1,
    };
    const chunk = await hub.call("PUT", `/api/v1/reports/${opened.data.id}/rows`, {
      key: ada,
      json: { offset: 0, rows: [row] },
    });
    expect(await refusal(chunk)).toEqual([
      400,
      'body field "rows.0.completion.0.content" holds a NUL character (\\u0000): nothing on the Hub is named or written with one, so remove it',
    ]);
    const stored = await jsonOf(await hub.call("GET", `/api/v1/reports/${opened.data.id}`));
    expect(stored.data.rows_received).toBe(0);
  });

  it("answers a NUL in a web form 400: the sign-in name and password", async () => {
    for (const fields of [
      { name: "ada\0", password: "pw-ada", next: "/" },
      { name: "ada", password: "pw-ada\0", next: "/" },
    ]) {
      const [status, message] = await refusal(await form("/login", fields));
      expect(status).toBe(400);
      expect(message).toMatch(/^form field "(name|password)" holds a NUL character \(%00\)/);
    }
  });

  it("refuses a package whose manifest or README holds a NUL, naming it, and stores nothing", async () => {
    const withManifest = (json: Record<string, unknown>) =>
      packTarball([
        { path: "package.json", data: Buffer.from(JSON.stringify(json)) },
        ...samplePackage("two").filter((f) => f.path !== "package.json"),
      ]);
    const manifest = { name: "two", version: "1.0.0", vf: { id: "two" } };
    const cases: [Uint8Array, number, string, string][] = [
      [
        withManifest({ ...manifest, description: "a\u0000b" }),
        422,
        "validation_failed",
        'package.json field "description" holds a NUL character (\\u0000): remove it',
      ],
      [
        withManifest({ ...manifest, vf: { id: "two", tags: ["math", "x\u0000"] } }),
        422,
        "validation_failed",
        'package.json field "vf.tags.1" holds a NUL character (\\u0000): remove it',
      ],
      [
        sampleTarball("two", "1.0.0", { "README.md": "# two\n\0\n" }),
        422,
        "invalid_package",
        "README.md holds a NUL byte: the Hub shows the README as text, which cannot hold one; remove it",
      ],
    ];
    for (const [body, status, code, message] of cases) {
      const response = await hub.call("POST", "/api/v1/envs/ada/two/versions", { key: ada, body });
      expect(response.status).toBe(status);
      expect((await jsonOf(response)).error).toMatchObject({ code, message });
      const sha256 = createHash("sha256").update(body).digest("hex");
      expect(await hub.context.blobs.has(tarballKey(sha256))).toBe(false);
    }
    expect((await hub.call("GET", "/api/v1/envs/ada/two", { key: ada })).status).toBe(404);
  });

  it("still answers the same requests without the NUL", async () => {
    const search = await jsonOf(await hub.call("GET", "/api/v1/envs?q=one"));
    expect(search.data.items.map((e: { id: string }) => e.id)).toEqual(["ada/one"]);
    expect((await hub.call("GET", "/npm/-/v1/search?text=one")).status).toBe(200);
    expect((await hub.call("GET", "/ada/one")).status).toBe(200);
  });
});
