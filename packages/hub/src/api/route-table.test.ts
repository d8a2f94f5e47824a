/**
 * The route table hands a handler typed `params` from its path and the caller its `auth` declares,
 * having refused everyone else before the handler runs (or the body is read). The @ts-expect-error
 * lines and `expectTypeOf` are the test of the types: `npm run check` (tsc) fails if a @ts-expect-error
 * line compiles or a type is not the one expected.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import { z } from "zod";
import type { Principal } from "../server/hub-context.ts";
import { COUNTED_CHUNK, countedBody } from "../testing/counted-body.ts";
import { createTestHub, jsonOf, type TestHub } from "../testing/test-hub.ts";
import { RouteTable } from "./route-table.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

// Under /api, so a refusal is the API's JSON envelope.
const Echo = z.object({
  route: z.string(),
  params: z.record(z.string(), z.string()),
  user: z.string().nullable(),
});

let hub: TestHub;
let reader: string;
let writer: string;
let admin: string;
/** The routes whose handler ran, in order. */
const called: string[] = [];

beforeAll(async () => {
  hub = await createTestHub();
  const table = new RouteTable(hub.app, "/api/test");
  table.add(
    {
      method: "get",
      path: "/things/{owner}/{name}",
      summary: "anyone",
      auth: "optional",
      response: Echo,
    },
    async (_c, { params, user }) => {
      called.push("optional");
      // @ts-expect-error: the path declares {owner} and {name}, not {ref}
      void params.ref;
      expectTypeOf(user).toEqualTypeOf<Principal | null>();
      const owner: string = params.owner;
      return { route: "optional", params: { owner, name: params.name }, user: user?.userName ?? null };
    },
  );
  table.add(
    {
      method: "put",
      path: "/things/{id}",
      summary: "any key",
      auth: "read",
      body: z.object({ note: z.string() }),
      response: Echo,
    },
    async (_c, { params, user, body }) => {
      called.push("read");
      expectTypeOf(user).toEqualTypeOf<Principal>();
      const name: string = user.userName;
      return { route: "read", params: { id: params.id, note: body.note }, user: name };
    },
  );
  table.add(
    { method: "post", path: "/things", summary: "a write key", auth: "write", response: Echo },
    async (_c, { params, user }) => {
      called.push("write");
      // @ts-expect-error: the path declares no parameter at all
      void params.id;
      const scope: "write" = user.scope;
      return { route: "write", params: { scope }, user: user.userName };
    },
  );
  table.add(
    {
      method: "post",
      path: "/admin/{what}",
      summary: "admins",
      auth: "admin",
      notAdmin: "only admins do this here: ask one",
      response: Echo,
    },
    async (_c, { params, user }) => {
      called.push("admin");
      const isAdmin: true = user.isAdmin;
      return { route: "admin", params: { what: params.what, admin: String(isAdmin) }, user: user.userName };
    },
  );
  table.add(
    { method: "get", path: "/open", summary: "nobody is looked at", auth: "none", response: Echo },
    async (_c, { user }) => {
      called.push("none");
      expectTypeOf(user).toBeNull();
      return { route: "none", params: {}, user };
    },
  );
  reader = await hub.addUser("reader", "read");
  writer = await hub.addUser("writer", "write");
  admin = await hub.addUser("boss", "write", true);
});
afterAll(() => hub.close());

describe("the route table", () => {
  it("answers an anonymous caller of a 'read' route 401 without calling the handler or reading the body", async () => {
    called.length = 0;
    const body = countedBody(1024 * 1024);
    const response = await hub.app.request("http://hub.test/api/test/things/7", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(401);
    expect((await jsonOf(response)).error).toMatchObject({
      code: "unauthorized",
      message: "this needs an API key: run vf login, or set VF_API_KEY",
    });
    expect(called).toEqual([]);
    expect(body.pulled).toBeLessThanOrEqual(COUNTED_CHUNK);
  });

  it("hands a 'read' route's handler the caller and its typed params", async () => {
    called.length = 0;
    const response = await hub.call("PUT", "/api/test/things/7", { key: reader, json: { note: "hi" } });
    expect(await jsonOf(response)).toEqual({
      data: { route: "read", params: { id: "7", note: "hi" }, user: "reader" },
    });
    expect(called).toEqual(["read"]);
  });

  it("answers a read-only key on a 'write' route 403 without calling the handler", async () => {
    called.length = 0;
    const response = await hub.call("POST", "/api/test/things", { key: reader });
    expect(response.status).toBe(403);
    expect((await jsonOf(response)).error.message).toMatch(
      /^the key vf_\w+ is read-only: create a write key/,
    );
    expect(called).toEqual([]);
    expect((await jsonOf(await hub.call("POST", "/api/test/things", { key: writer }))).data).toEqual({
      route: "write",
      params: { scope: "write" },
      user: "writer",
    });
  });

  it("answers a writer who is not an admin 403 with the route's words, and lets an admin in", async () => {
    called.length = 0;
    const refused = await hub.call("POST", "/api/test/admin/x", { key: writer });
    expect(refused.status).toBe(403);
    expect((await jsonOf(refused)).error).toMatchObject({
      code: "forbidden",
      message: "only admins do this here: ask one",
    });
    expect((await hub.call("POST", "/api/test/admin/x")).status).toBe(401);
    expect(called).toEqual([]);
    const allowed = await hub.call("POST", "/api/test/admin/x", { key: admin });
    expect((await jsonOf(allowed)).data).toEqual({
      route: "admin",
      params: { what: "x", admin: "true" },
      user: "boss",
    });
  });

  it("hands an 'optional' route the caller or null, and a 'none' route null even with a key", async () => {
    const anonymous = await jsonOf(await hub.call("GET", "/api/test/things/ada/echo%20x"));
    expect(anonymous.data).toEqual({
      route: "optional",
      params: { owner: "ada", name: "echo x" },
      user: null,
    });
    const signedIn = await jsonOf(await hub.call("GET", "/api/test/things/ada/echo", { key: writer }));
    expect(signedIn.data.user).toBe("writer");
    expect((await jsonOf(await hub.call("GET", "/api/test/open", { key: writer }))).data.user).toBeNull();
  });

  it("refuses a writer who is not an admin on POST /api/v1/users, before reading the body", async () => {
    const body = countedBody(1024 * 1024);
    const response = await hub.app.request("http://hub.test/api/v1/users", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${writer}` },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(403);
    expect((await jsonOf(response)).error.message).toBe(
      "only admins create users: ask one, or run vf hub user create on the Hub's machine",
    );
    expect(body.pulled).toBeLessThanOrEqual(COUNTED_CHUNK);
    const created = await hub.call("POST", "/api/v1/users", { key: admin, json: { name: "newcomer" } });
    expect(created.status).toBe(201);
  });
});
