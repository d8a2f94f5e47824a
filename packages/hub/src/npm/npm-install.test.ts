/**
 * The npm registry protocol, driven by the real npm CLI: `npm install @owner/name --registry <hub>/npm/`
 * into a temporary project, and `npm search`, with a temporary .npmrc (the bearer token for private
 * packages), cache and global config, so nothing touches the public registry or the user's npm setup.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HubClient } from "../client/hub-client.ts";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { jsonOf, sampleTarball } from "../testing/test-hub.ts";

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "vf-npm-"));
let hub: RunningHub;
let registry: string;
let ownerKey: string;
let strangerKey: string;

beforeAll(async () => {
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  registry = `${hub.url}/npm/`;
  ownerKey = hub.bootstrap!.apiKey;
  const admin = new HubClient({ url: hub.url, apiKey: ownerKey });
  await admin.pushTarball("admin", "echo", sampleTarball("echo", "1.0.0"), { visibility: "public" });
  await admin.pushTarball("admin", "echo", sampleTarball("echo", "1.1.0", { "CHANGELOG.md": "1.1.0\n" }));
  await admin.pushTarball("admin", "secret", sampleTarball("secret", "0.3.0"), { visibility: "private" });
  strangerKey = (await admin.createUser({ name: "stranger" })).api_key;
}, 120_000);
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs `npm <command> ...` in a fresh project with `token` (if any) in its .npmrc. */
async function npm(command: string[], token?: string): Promise<{ dir: string; ok: boolean; output: string }> {
  const dir = mkdtempSync(join(root, "project-"));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", version: "1.0.0", private: true }),
  );
  const host = new URL(registry).host;
  writeFileSync(
    join(dir, ".npmrc"),
    `registry=${registry}\n${token ? `//${host}/npm/:_authToken=${token}\n` : ""}`,
  );
  writeFileSync(join(dir, "global.npmrc"), "");
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const args = [
    ...command,
    "--registry",
    registry,
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
