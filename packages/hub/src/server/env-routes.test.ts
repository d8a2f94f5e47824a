import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentHash } from "../package/content-hash.ts";
import { createTestHub, jsonOf, samplePackage, sampleTarball, type TestHub } from "../testing/test-hub.ts";

let hub: TestHub;
let ada: string;
let bob: string;
let adaRead: string;
beforeAll(async () => {
  hub = await createTestHub();
  ada = await hub.addUser("ada");
  bob = await hub.addUser("bob");
  const user = (await hub.context.db.query<{ id: number }>("select id from users where name = 'ada'"))[0]!;
  adaRead = (
    await (await import("../auth/issue-api-key.ts")).issueApiKey(hub.context.db, user.id, "ro", "read")
  ).key;
});
afterAll(() => hub.close());

const push = (key: string, name: string, version = "1.0.0", query = "", extra: Record<string, string> = {}) =>
  hub.call("POST", `/api/v1/envs/ada/${name}/versions${query}`, {
    key,
    body: sampleTarball(name, version, extra),
  });

describe("environment routes", () => {
  it("pushes a version (201), answers unchanged (200) for the same content, and refuses a taken label", async () => {
    const first = await push(ada, "echo");
    expect(first.status).toBe(201);
    const created = (await jsonOf(first)).data;
    expect(created).toMatchObject({
      status: "created",
      version: { semver: "1.0.0", content_hash: contentHash(samplePackage("echo")) },
    });
    const again = await push(ada, "echo");
    expect(again.status).toBe(200);
    expect((await jsonOf(again)).data).toMatchObject({
      status: "unchanged",
      message: expect.stringMatching(/already at version 1.0.0/),
    });
    const taken = await push(ada, "echo", "1.0.0", "", { "extra.txt": "changed" });
    expect(taken.status).toBe(409);
    expect((await jsonOf(taken)).error).toMatchObject({
      code: "version_exists",
      message: expect.stringMatching(/--bump patch/),
    });
  });

  it("wraps every reply in the envelope and every list in a cursor page", async () => {
    for (const v of ["1.1.0", "1.2.0", "2.0.0"]) await push(ada, "echo", v, "", { "v.txt": v });
    const info = await jsonOf(await hub.call("GET", "/api/v1/envs/ada/echo"));
    expect(info.data).toMatchObject({
      id: "ada/echo",
      latest_version: "2.0.0",
      install: { vf: "vf env install ada/echo" },
    });
    expect(info.data.readme).toContain("# echo");
    const page1 = (await jsonOf(await hub.call("GET", "/api/v1/envs/ada/echo/versions?limit=3"))).data;
    expect(page1.items.map((v: { semver: string }) => v.semver)).toEqual(["2.0.0", "1.2.0", "1.1.0"]);
    const page2 = (
      await await jsonOf(
        await hub.call("GET", `/api/v1/envs/ada/echo/versions?limit=3&cursor=${page1.next_cursor}`),
      )
    ).data;
    expect(page2).toEqual({ items: [expect.objectContaining({ semver: "1.0.0" })], next_cursor: null });
    const bad = await hub.call("GET", "/api/v1/envs/ada/echo/versions?cursor=nope");
    expect((await jsonOf(bad)).error.code).toBe("bad_request");
    const limit = await hub.call("GET", "/api/v1/envs?limit=1000");
    expect((await jsonOf(limit)).error).toMatchObject({
      code: "validation_failed",
      details: { field: "limit" },
    });
  });

  it("resolves versions by semver, hash prefix and latest, and serves the tarball with its hashes", async () => {
    const latest = (await jsonOf(await hub.call("GET", "/api/v1/envs/ada/echo/versions/latest"))).data;
    const byPrefix = (
      await await jsonOf(
        await hub.call("GET", `/api/v1/envs/ada/echo/versions/${latest.content_hash.slice(0, 10)}`),
      )
    ).data;
    expect(byPrefix.semver).toBe("2.0.0");
    const tarball = await hub.call("GET", "/api/v1/envs/ada/echo/versions/1.0.0/tarball");
    expect(tarball.headers.get("x-vf-content-hash")).toBe(contentHash(samplePackage("echo")));
    expect(Buffer.from(await tarball.arrayBuffer())).toEqual(Buffer.from(sampleTarball("echo")));
    const missing = await hub.call("GET", "/api/v1/envs/ada/echo/versions/9.9.9");
    expect((await jsonOf(missing)).error.message).toMatch(/pick one of 2.0.0, 1.2.0, 1.1.0, 1.0.0/);
  });

  it("browses files on the server, capping content at max_bytes", async () => {
    const root = (await jsonOf(await hub.call("GET", "/api/v1/envs/ada/echo/versions/1.0.0/files"))).data;
    expect(root.entries.map((e: { name: string }) => e.name)).toEqual([
      "README.md",
      "index.js",
      "package.json",
    ]);
    const file = (
      await await jsonOf(
        await hub.call("GET", "/api/v1/envs/ada/echo/versions/1.0.0/files?path=index.js&max_bytes=10"),
      )
    ).data;
    expect(file).toMatchObject({ kind: "file", encoding: "utf8", content: "export fun", truncated: true });
  });

  it("lets only the owner with a write key push or delete", async () => {
    const byBob = await hub.call("POST", "/api/v1/envs/ada/other/versions", {
      key: bob,
      body: sampleTarball("other"),
    });
    expect((await jsonOf(byBob)).error).toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/bob\/other/),
    });
    const readOnly = await push(adaRead, "other");
    expect((await jsonOf(readOnly)).error.code).toBe("forbidden");
    const anonymous = await hub.call("DELETE", "/api/v1/envs/ada/echo/versions/1.1.0");
    expect(anonymous.status).toBe(401);
    const deleted = await hub.call("DELETE", "/api/v1/envs/ada/echo/versions/1.1.0", { key: ada });
    expect((await jsonOf(deleted)).data).toEqual({ deleted: "ada/echo@1.1.0" });
  });

  it("changes visibility: private hides the environment from others at once", async () => {
    const patched = await jsonOf(
      await hub.call("PATCH", "/api/v1/envs/ada/echo", { key: ada, json: { visibility: "private" } }),
    );
    expect(patched.data.visibility).toBe("private");
    expect((await hub.call("GET", "/api/v1/envs/ada/echo")).status).toBe(404);
    expect((await hub.call("GET", "/api/v1/envs/ada/echo", { key: ada })).status).toBe(200);
    const typo = await jsonOf(
      await hub.call("PATCH", "/api/v1/envs/ada/echo", { key: ada, json: { visibility: "secret" } }),
    );
    expect(typo.error).toMatchObject({ code: "validation_failed", details: { field: "visibility" } });
    await hub.call("PATCH", "/api/v1/envs/ada/echo", { key: ada, json: { visibility: "public" } });
    expect((await hub.call("GET", "/api/v1/envs/ada/echo")).status).toBe(200);
  });

  it("publishes an OpenAPI document generated from the schemas", async () => {
    const doc = await jsonOf(await hub.call("GET", "/api/v1/openapi.json"));
    expect(doc.openapi).toBe("3.1.0");
    const push = doc.paths["/envs/{owner}/{name}/versions"].post;
    expect(push.requestBody.content).toHaveProperty("application/gzip");
    const info = doc.paths["/envs/{owner}/{name}"].get.responses["200"].content["application/json"].schema;
    expect(
      info.properties.data.properties.content_hash ?? info.properties.data.properties.latest,
    ).toBeDefined();
    expect(
      doc.paths["/reports/{id}/rows"].put.requestBody.content["application/json"].schema.required,
    ).toContain("offset");
  });

  it("answers unknown API routes with the envelope, not HTML", async () => {
    const response = await hub.call("GET", "/api/v1/nothing");
    expect(response.status).toBe(404);
    expect((await jsonOf(response)).error.code).toBe("not_found");
  });
});
