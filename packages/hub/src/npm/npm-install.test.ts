/**
 * The npm registry protocol, driven by the real npm CLI: `npm install @owner/name --registry <hub>/npm/`
 * into a temporary project, and `npm search`, with a temporary .npmrc (the bearer token for private
 * packages), cache and global config, so nothing touches the public registry or the user's npm setup.
 * The install command the Hub prints sends only the owner's scope to the Hub; a one-package registry
 * on loopback stands in for the user's own, which serves the environment's dependencies.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HubClient } from "../client/hub-client.ts";
import { packTarball } from "../package/package-tarball.ts";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { jsonOf, samplePackage, sampleTarball } from "../testing/test-hub.ts";

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "vf-npm-"));
let hub: RunningHub;
let registry: string;
let ownerKey: string;
let strangerKey: string;
let admin: HubClient;
let userRegistry: { server: Server; url: string };

/** The user's own registry, as npmjs.org is: it serves one package, `tiny-dep@1.0.0`. */
async function startUserRegistry(): Promise<{ server: Server; url: string }> {
  const manifest = { name: "tiny-dep", version: "1.0.0" };
  const tarball = packTarball([{ path: "package.json", data: Buffer.from(JSON.stringify(manifest)) }]);
  const server = createServer((request, response) => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    if (request.url === "/tiny-dep") {
      const dist = {
        tarball: `${url}tiny-dep/-/tiny-dep-1.0.0.tgz`,
        integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
        shasum: createHash("sha1").update(tarball).digest("hex"),
      };
      const packument = {
        name: "tiny-dep",
        "dist-tags": { latest: "1.0.0" },
        versions: { "1.0.0": { ...manifest, dist } },
      };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument));
    } else if (request.url === "/tiny-dep/-/tiny-dep-1.0.0.tgz") {
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(tarball);
    } else {
      response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

beforeAll(async () => {
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  registry = `${hub.url}/npm/`;
  userRegistry = await startUserRegistry();
  ownerKey = hub.bootstrap!.apiKey;
  admin = new HubClient({ url: hub.url, apiKey: ownerKey });
  await admin.pushTarball("admin", "echo", sampleTarball("echo", "1.0.0"), { visibility: "public" });
  await admin.pushTarball("admin", "echo", sampleTarball("echo", "1.1.0", { "CHANGELOG.md": "1.1.0\n" }));
  await admin.pushTarball("admin", "secret", sampleTarball("secret", "0.3.0"), { visibility: "private" });
  strangerKey = (await admin.createUser({ name: "stranger" })).api_key;
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => userRegistry.server.close(resolve));
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

/**
 * Runs `npm <command> ...` in a fresh project with `token` (if any) in its .npmrc; `defaultRegistry`
 * is the one npm asks for every package no scope sends elsewhere (default the Hub's).
 */
async function npm(
  command: string[],
  token?: string,
  defaultRegistry = registry,
): Promise<{ dir: string; ok: boolean; output: string }> {
  const dir = mkdtempSync(join(root, "project-"));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", version: "1.0.0", private: true }),
  );
  const host = new URL(registry).host;
  writeFileSync(
    join(dir, ".npmrc"),
    `registry=${defaultRegistry}\n${token ? `//${host}/npm/:_authToken=${token}\n` : ""}`,
  );
  writeFileSync(join(dir, "global.npmrc"), "");
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const args = [
    ...command,
    "--registry",
    defaultRegistry,
    "--userconfig",
    join(dir, ".npmrc"),
    "--globalconfig",
    join(dir, "global.npmrc"),
  ];
  args.push(
    "--cache",
    join(dir, "cache"),
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--no-update-notifier",
    "--loglevel",
    "error",
  );
  try {
    const { stdout, stderr } = await run("npm", args, { cwd: dir, env, timeout: 120_000 });
    return { dir, ok: true, output: stdout + stderr };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { dir, ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

describe("npm install from the Hub", () => {
  it("serves packuments by %2f and by slash, with dist-tags, integrity and shasum", async () => {
    const encoded = await jsonOf(await fetch(`${hub.url}/npm/@admin%2fecho`));
    const slashed = await jsonOf(await fetch(`${hub.url}/npm/@admin/echo`));
    expect(encoded).toEqual(slashed);
    expect(encoded["dist-tags"]).toEqual({ latest: "1.1.0" });
    expect(encoded.versions["1.0.0"].dist).toMatchObject({
      tarball: `${hub.url}/npm/@admin/echo/-/echo-1.0.0.tgz`,
      integrity: expect.stringMatching(/^sha512-/),
      shasum: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(encoded.versions["1.0.0"].peerDependenciesMeta).toEqual({ "@vf-rl/core": { optional: true } });
  });

  it("installs a public environment with the real npm client, the optional @vf-rl/core peer left alone", async () => {
    const result = await npm(["install", "@admin/echo"]);
    expect(result.output).not.toMatch(/ERR!/);
    expect(result.ok).toBe(true);
    const installed = JSON.parse(
      readFileSync(join(result.dir, "node_modules/@admin/echo/package.json"), "utf8"),
    );
    expect(installed.version).toBe("1.1.0");
    const lock = JSON.parse(readFileSync(join(result.dir, "package-lock.json"), "utf8"));
    expect(lock.packages["node_modules/@admin/echo"].integrity).toMatch(/^sha512-/);
    expect(lock.packages).not.toHaveProperty("node_modules/@vf-rl/core");
  }, 120_000);

  it("installs with the command the Hub prints, the environment's dependencies from the user's registry", async () => {
    // An environment that depends on a package of the public registry, as each depends on zod.
    const manifest = JSON.parse(new TextDecoder().decode(samplePackage("leaning")[0]!.data));
    const withDependency = {
      ...manifest,
      dependencies: { "tiny-dep": "1.0.0" },
      vf: { ...manifest.vf, tags: ["test"] }, // not among the "sample" environments searched below
    };
    await admin.pushTarball(
      "admin",
      "leaning",
      packTarball(samplePackage("leaning", "1.0.0", { "package.json": JSON.stringify(withDependency) })),
      { visibility: "public" },
    );
    const printed = (await admin.envInfo("admin", "leaning")).install.npm;
    expect(printed).toBe(`npm install @admin/leaning --@admin:registry=${registry}`);
    const installed = await npm(printed.split(" ").slice(1), undefined, userRegistry.url);
    expect(installed.output).not.toMatch(/ERR!/);
    expect(installed.ok).toBe(true);
    for (const name of ["@admin/leaning", "tiny-dep"]) {
      expect(
        JSON.parse(readFileSync(join(installed.dir, "node_modules", name, "package.json"), "utf8")),
      ).toMatchObject({ version: "1.0.0" });
    }
    // `--registry HUB`, printed before: the whole tree asked of the Hub, which serves only environments.
    const unscoped = await npm(["install", "@admin/leaning"], undefined, registry);
    expect(unscoped.ok).toBe(false);
    expect(unscoped.output).toMatch(/404 Not Found - GET .*tiny-dep/);
  }, 120_000);

  it("installs a pinned version", async () => {
    const result = await npm(["install", "@admin/echo@1.0.0"]);
    expect(result.ok).toBe(true);
    expect(
      JSON.parse(readFileSync(join(result.dir, "node_modules/@admin/echo/package.json"), "utf8")).version,
    ).toBe("1.0.0");
  }, 120_000);

  it("installs a private environment only with its owner's token; others get 404", async () => {
    const anonymous = await npm(["install", "@admin/secret"]);
    expect(anonymous.ok).toBe(false);
    expect(anonymous.output).toMatch(/404/);
    const withOwnerToken = await npm(["install", "@admin/secret"], ownerKey);
    expect(withOwnerToken.ok).toBe(true);
    expect(readFileSync(join(withOwnerToken.dir, "node_modules/@admin/secret/README.md"), "utf8")).toContain(
      "# secret",
    );
    const withStrangerToken = await npm(["install", "@admin/secret"], strangerKey);
    expect(withStrangerToken.ok).toBe(false);
    expect(withStrangerToken.output).toMatch(/404/);
  }, 120_000);
});

describe("npm search against the Hub", () => {
  it("lists matching environments the way npm prints them", async () => {
    const result = await npm(["search", "echo"]);
    expect(result.ok).toBe(true);
    expect(result.output).toMatch(/@admin\/echo\s+The echo environment/);
    expect(result.output).toMatch(/Version 1\.1\.0 published \d{4}-\d\d-\d\d by admin/);
    expect(result.output).toContain("Maintainers: admin");
    expect(result.output).not.toContain("[object Object]");
    const none = await npm(["search", "no-such-environment"]);
    expect(none.output).toContain('No matches found for "no-such-environment"');
  }, 120_000);

  it("finds a private environment only with its owner's token", async () => {
    const names = async (token?: string) => {
      const result = await npm(["search", "sample", "--json"], token);
      expect(result.ok).toBe(true);
      return (JSON.parse(result.output) as { name: string }[]).map((p) => p.name).sort();
    };
    expect(await names()).toEqual(["@admin/echo"]);
    expect(await names(strangerKey)).toEqual(["@admin/echo"]);
    expect(await names(ownerKey)).toEqual(["@admin/echo", "@admin/secret"]);
  }, 120_000);

  it("prints a readable message for a registry path the Hub does not serve", async () => {
    const result = await npm(["whoami"], ownerKey);
    expect(result.ok).toBe(false);
    expect(result.output).toContain("404 Not Found - GET");
    expect(result.output).toContain("the Hub's npm registry has no GET /npm/-/whoami");
    expect(result.output).not.toContain("[object Object]");
  }, 120_000);
});
