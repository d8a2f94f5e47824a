import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findEnvironment } from "@vf-rl/core/loading";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { writeSamplePackage } from "../testing/test-hub.ts";
import { HubClient } from "./hub-client.ts";
import { hubConfigPath, resolveHubTarget } from "./hub-config.ts";
import { installEnvironment } from "./install-environment.ts";
import { loginWithBrowser, loginWithKey } from "./login.ts";
import { pullEnvironment } from "./pull-environment.ts";
import { pushEnvironment } from "./push-environment.ts";
import { uninstallEnvironment } from "./uninstall-environment.ts";

const root = mkdtempSync(join(tmpdir(), "vf-hub-client-"));
let hub: RunningHub;
let client: HubClient;
beforeAll(async () => {
  process.env.XDG_CONFIG_HOME = join(root, "config");
  process.env.VF_HOME = join(root, "vf-home");
  delete process.env.VF_API_KEY;
  delete process.env.VF_HUB_URL;
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  client = new HubClient({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
});
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the Hub client", () => {
  it("logs in with a pasted key, saving it with mode 0600, and whoami answers", async () => {
    const result = await loginWithKey({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
    expect(result.user).toBe("admin");
    expect(statSync(hubConfigPath()).mode & 0o777).toBe(0o600);
    expect(resolveHubTarget()).toEqual({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
    const me = await HubClient.fromEnvironment().whoami();
    expect(me).toMatchObject({ user: { name: "admin", is_admin: true }, key: { scope: "write" } });
    await expect(loginWithKey({ url: hub.url, apiKey: "vf_nope" })).rejects.toMatchObject({
      code: "unauthorized",
      status: 401,
    });
  });

  it("dry-runs a push: lists the files it would send, honouring .gitignore, touching nothing", async () => {
    const dir = writeSamplePackage(join(root, "echo"), "echo", "0.1.0", {
      "data/rows.jsonl": "{}\n",
      "big.bin": "x",
    });
    writeFileSync(join(dir, ".gitignore"), "big.bin\n");
    mkdirSync(join(dir, "node_modules/dep"), { recursive: true });
    writeFileSync(join(dir, "node_modules/dep/index.js"), "");
    const dry = await pushEnvironment({ client, dir, dryRun: true, bump: "patch" });
    expect(dry).toMatchObject({ type: "dry-run", version: "0.1.1" });
    if (dry.type !== "dry-run") throw new Error("expected a dry run");
    expect(dry.files.map((f) => f.path)).toEqual([
      "README.md",
      "data/rows.jsonl",
      "index.js",
      "package.json",
    ]);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version).toBe("0.1.0");
    await expect(client.envInfo("admin", "echo")).rejects.toMatchObject({ code: "not_found", status: 404 });
  });

  it("pushes, answers unchanged for the same content, and bumps only when the content changed", async () => {
    const dir = join(root, "echo");
    const first = await pushEnvironment({ client, dir, visibility: "public" });
    expect(first).toMatchObject({ type: "created", id: "admin/echo", version: "0.1.0" });
    const again = await pushEnvironment({ client, dir, bump: "patch" });
    expect(again).toMatchObject({
      type: "unchanged",
      version: "0.1.0",
      message: expect.stringMatching(/already at version 0.1.0/),
    });
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version).toBe("0.1.0");
    writeFileSync(join(dir, "index.js"), "export function loadEnvironment() { return { v: 2 }; }\n");
    const bumped = await pushEnvironment({ client, dir, bump: "minor" });
    expect(bumped).toMatchObject({ type: "created", version: "0.2.0", bumpedFrom: "0.1.0" });
    expect(readFileSync(join(dir, "package.json"), "utf8")).toContain('"version": "0.2.0"');
  });

  it("leaves a symbolic link out of a push, as npm pack does, never following it", async () => {
    const dir = writeSamplePackage(join(root, "linked"), "linked");
    symlinkSync("/etc/passwd", join(dir, "passwd"));
    const dry = await pushEnvironment({ client, dir, dryRun: true });
    expect(dry.type === "dry-run" && dry.files.map((f) => f.path)).toEqual([
      "README.md",
      "index.js",
      "package.json",
    ]);
  });

  it("installs outside any project into the managed folder, where core's loader finds it", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vf-outside-"));
    const result = await installEnvironment({ client, spec: "admin/echo@0.1.0", cwd: outside });
    expect(result).toMatchObject({ where: "managed", version: { semver: "0.1.0" } });
    expect(result.dir).toBe(join(root, "vf-home", "envs", "node_modules", "@admin", "echo"));
    const found = findEnvironment("admin/echo", { cwd: outside });
    expect(found.dir).toBe(result.dir);
    expect(found.packageJson.version).toBe("0.1.0");
    const managed = JSON.parse(readFileSync(join(root, "vf-home", "envs", "package.json"), "utf8"));
    expect(managed.dependencies["@admin/echo"]).toBe("0.1.0");
    rmSync(outside, { recursive: true, force: true });
  });

  it("installs into the current project through npm, by semver, hash or latest, saying what it replaced", async () => {
    const project = join(root, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "my-project", private: true }, null, 2),
    );
    const latest = await installEnvironment({ client, spec: "admin/echo", cwd: join(project, "src") });
    expect(latest).toMatchObject({
      where: "project",
      dir: join(project, "node_modules/@admin/echo"),
      version: { semver: "0.2.0" },
      replaced: null,
      scopeAddedTo: join(project, ".npmrc"),
    });
    expect(readFileSync(join(project, ".npmrc"), "utf8")).toBe(`@admin:registry=${hub.url}/npm/\n`);
    const byHash = await installEnvironment({
      client,
      spec: `admin/echo@${(await client.version("admin", "echo", "0.1.0")).content_hash.slice(0, 12)}`,
      cwd: project,
    });
    expect(byHash).toMatchObject({ version: { semver: "0.1.0" }, replaced: "0.2.0", scopeAddedTo: null });
    expect(readFileSync(join(project, "node_modules/@admin/echo/index.js"), "utf8")).toContain("return {};");
    // npm recorded it, exactly, in package.json and the lockfile, so npm ci brings it back.
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).dependencies).toEqual({
      "@admin/echo": "0.1.0",
    });
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
    expect(lock.packages["node_modules/@admin/echo"]).toMatchObject({ version: "0.1.0" });

    const removed = await uninstallEnvironment({ spec: "admin/echo", cwd: project });
    expect(removed).toMatchObject({ id: "admin/echo", version: "0.1.0", where: "project" });
    expect(existsSync(join(project, "node_modules/@admin/echo"))).toBe(false);
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).dependencies ?? {}).toEqual({});
    await expect(uninstallEnvironment({ spec: "admin/echo", cwd: project })).rejects.toThrow(
      /admin\/echo is not installed in the project at .*; add -g for vf's managed folder/,
    );

    await expect(
      installEnvironment({ client, spec: "admin/echo@9.9.9", cwd: project }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(installEnvironment({ client, spec: "not an id", cwd: project })).rejects.toMatchObject({
      code: "bad_request",
    });
  }, 120_000);

  it("refuses to send a scope that .npmrc already sends to another registry", async () => {
    const project = mkdtempSync(join(root, "scoped-"));
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", private: true }));
    writeFileSync(join(project, ".npmrc"), "@admin:registry=https://npm.example.com/\n");
    await expect(installEnvironment({ client, spec: "admin/echo", cwd: project })).rejects.toThrow(
      /sends @admin packages to https:\/\/npm.example.com\/, not to this Hub/,
    );
    expect(existsSync(join(project, "node_modules"))).toBe(false);
  });

  it("pulls the source into a new folder and never over an existing one", async () => {
    const { dir, version } = await pullEnvironment({
      client,
      spec: "admin/echo@0.2.0",
      cwd: root,
      target: "pulled",
    });
    expect(version.semver).toBe("0.2.0");
    expect(existsSync(join(dir, "data/rows.jsonl"))).toBe(true);
    await expect(
      pullEnvironment({ client, spec: "admin/echo", cwd: root, target: "pulled" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("lists, searches, inspects and deletes through the typed client", async () => {
    expect((await client.listEnvs({ q: "echo" })).items.map((e) => e.id)).toEqual(["admin/echo"]);
    expect((await client.listVersions("admin", "echo")).items.map((v) => v.semver)).toEqual([
      "0.2.0",
      "0.1.0",
    ]);
    const listing = await client.inspect("admin", "echo", "latest", { path: "data" });
    expect(listing).toMatchObject({ kind: "directory", entries: [{ name: "rows.jsonl", type: "file" }] });
    expect(await client.delete("admin", "echo", "0.1.0")).toEqual({ deleted: "admin/echo@0.1.0" });
    expect((await client.envInfo("admin", "echo")).latest_version).toBe("0.2.0");
  });

  it("says the Hub is unreachable, with what to do, when nothing listens", async () => {
    const gone = new HubClient({ url: "http://127.0.0.1:9", timeoutSeconds: 2 });
    await expect(gone.listEnvs()).rejects.toMatchObject({
      code: "unreachable",
      message: expect.stringMatching(/vf hub serve/),
    });
  });

  it("waits timeoutSeconds for each answer: a reply 0.2 s late is read, one that never comes is given up", async () => {
    const held: ServerResponse[] = [];
    const slow = createServer((request, response) => {
      if (request.url?.includes("never")) return void held.push(response);
      const body = { error: { code: "not_found", message: "no environment here" } };
      setTimeout(
        () => response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify(body)),
        200,
      );
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      await expect(
        new HubClient({ url, timeoutSeconds: 30 }).envInfo("someone", "late"),
      ).rejects.toMatchObject({
        code: "not_found",
      });
      await expect(
        new HubClient({ url, timeoutSeconds: 0.5 }).envInfo("someone", "never"),
      ).rejects.toMatchObject({
        code: "unreachable",
        message: expect.stringMatching(/timeout/),
      });
    } finally {
      for (const response of held) response.destroy();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it("gives up a browser login nobody approves after timeoutSeconds", async () => {
    let shown = false;
    await expect(
      loginWithBrowser({
        url: hub.url,
        onCode: () => {
          shown = true;
        },
        timeoutSeconds: 1,
      }),
    ).rejects.toMatchObject({ message: "the login was not approved in time: run vf login again" });
    expect(shown).toBe(true);
  }, 60_000);
});
