// The Hub commands end to end, driving the real vf binary against a real Hub on loopback: log in with a
// key → push an environment (created, unchanged, bumped) → install it outside any project → evaluate it
// with --push → the report is on the Hub, pinned to the installed version; then browsing, privacy, keys,
// deletion and bad input. Config and installs go to temp folders (VF_HOME, XDG_CONFIG_HOME, HOME).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findEnvironment } from "@vf-rl/core/loading";
import { byPrompt, lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { type RunningHub, startHub } from "@vf-rl/hub";
import { HubClient } from "@vf-rl/hub/client";
import { writeSamplePackage } from "@vf-rl/hub/testing";
import { runVf, type VfResult } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type TempProject, tempProject } from "./temp-project.ts";

// Each vf run starts a process (about 1.5 s); a test makes several, so the default 30 s is too tight on 2 cores.
vi.setConfig({ testTimeout: 120_000 });

const root = mkdtempSync(join(tmpdir(), "vf-hub-cli-"));
const vfHome = join(root, "vf-home");
const configHome = join(root, "config");
let hub: RunningHub;
let admin: HubClient;
let adminKey: string;
let project: TempProject;
let outside: string;
let model: ScriptedServer;

beforeAll(async () => {
  delete process.env.VF_API_KEY;
  delete process.env.DATABASE_URL;
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  adminKey = hub.bootstrap!.apiKey;
  admin = new HubClient({ url: hub.url, apiKey: adminKey });
  project = await tempProject();
  outside = mkdtempSync(join(tmpdir(), "vf-outside-"));
  model = await startScriptedServer({
    reply: byPrompt((messages) =>
      lastUserText(messages).includes("France") ? "<answer>Paris</answer>" : "?",
    ),
  });
});
afterAll(async () => {
  await model.close();
  await hub.close();
  await project.remove();
  rmSync(outside, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

/** Runs vf as a user whose home, config and managed folder are the test's; `env` adds or overrides. */
function vf(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}) {
  return runVf(args, {
    cwd: options.cwd ?? project.dir,
    input: options.input ?? "",
    env: {
      HOME: join(root, "home"),
      VF_HOME: vfHome,
      XDG_CONFIG_HOME: configHome,
      VF_HUB_URL: hub.url,
      ...options.env,
    },
  });
}

/** The one line a failed command prints: an error with what to do, and no stack. */
function expectOneErrorLine(result: VfResult, code: number, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

const json = (result: VfResult) => {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

describe("vf login, whoami", () => {
  it("logs in with a pasted key saved with mode 0600, and refuses a wrong key without losing it", async () => {
    const login = await vf(["login", "--key"], { input: `${adminKey}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`logged in to ${hub.url} as admin`);
    const config = join(configHome, "vf", "config.json");
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, "utf8"))).toMatchObject({ hub_url: hub.url, api_key: adminKey });

    expect(json(await vf(["whoami", "--json"]))).toMatchObject({
      hub: hub.url,
      user: { name: "admin", is_admin: true },
      key: { scope: "write" },
    });

    const wrong = await vf(["login", "--key"], { input: "vf_wrong_key\n" });
    expectOneErrorLine(wrong, 1, /the API key is not valid/);
    expect(JSON.parse(readFileSync(config, "utf8")).api_key).toBe(adminKey);
  });
});

describe("vf env push", () => {
  it("pushes a new environment, answers 'already at version' for the same content, and bumps after a change", async () => {
    expect((await vf(["init", "capitals"])).code).toBe(0);
    const dir = "environments/capitals";

    const dry = await vf(["env", "push", dir, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/package\.json/);
    // The scaffold's package.json "files" (src, data, README.md) leaves its vitest.config.ts home.
    expect(dry.stdout).not.toMatch(/vitest\.config\.ts/);
    expect(dry.stdout).toMatch(/would push \(you\)\/capitals@0\.1\.0: 5 files/);
    await expect(admin.envInfo("admin", "capitals")).rejects.toMatchObject({ code: "not_found" });

    const created = await vf(["env", "push", dir]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("pushed admin/capitals@0.1.0 (public");
    expect(created.stdout).toContain("vf env install admin/capitals@0.1.0");

    const again = await vf(["env", "push", dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already at version 0\.1\.0/);

    const manifest = join(project.dir, dir, "package.json");
    writeFileSync(join(project.dir, dir, "README.md"), "# capitals\n\nNow with a longer README.\n");
    const bumped = json(await vf(["env", "push", dir, "--bump", "patch", "--json"]));
    expect(bumped).toMatchObject({
      type: "created",
      id: "admin/capitals",
      version: "0.1.1",
      bumpedFrom: "0.1.0",
    });
    expect(JSON.parse(readFileSync(manifest, "utf8")).version).toBe("0.1.1");
  });
});

describe("vf env install → vf eval --push", () => {
  it("installs a version outside any project, evaluates it there, and the report is pinned to that version", async () => {
    const installed = await vf(["env", "install", "admin/capitals@0.1.0"], { cwd: outside });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(
      /installed admin\/capitals@0\.1\.0 .* \(vf's managed folder: no package.json here or above\)/,
    );
    const dir = join(vfHome, "envs", "node_modules", "@admin", "capitals");
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version).toBe("0.1.0");

    const evaluated = await vf(
      ["eval", "admin/capitals", "-m", "scripted", "-b", model.url, "-n", "2", "-r", "2", "-s", "--push"],
      { cwd: outside },
    );
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).toMatch(/report \d+: admin\/capitals@0\.1\.0 with scripted, 4 rollouts/);

    const version = await admin.version("admin", "capitals", "0.1.0");
    const reports = await admin.listReports("admin", "capitals");
    expect(reports.items).toHaveLength(1);
    expect(reports.items[0]).toMatchObject({
      env: "admin/capitals",
      version: "0.1.0",
      content_hash: version.content_hash,
      model: "scripted",
      row_count: 4,
      rows_received: 4,
      status: "complete",
    });

    // Pushing the saved run again finds the same report and sends nothing.
    const runs = join(outside, "outputs", "evals", "admin--capitals--scripted");
    const runDir = join(runs, readdirSync(runs)[0]!);
    const again = json(await vf(["eval", "push", runDir, "--json"], { cwd: outside }));
    expect(again).toMatchObject({ report: { id: reports.items[0]!.id }, sent: 0 });
  });

  it("installs into the current project and records the dependency, where vf eval looks first", async () => {
    writeFileSync(
      join(project.dir, "package.json"),
      `${JSON.stringify({ name: "my-project", private: true })}\n`,
    );
    const installed = await vf(["env", "install", "admin/capitals"]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain("installed admin/capitals@0.1.1");
    expect(installed.stdout).toContain(join("node_modules", "@admin", "capitals"));
    const manifest = JSON.parse(readFileSync(join(project.dir, "package.json"), "utf8"));
    expect(manifest.dependencies["@admin/capitals"]).toBe("0.1.1");
    expect(readFileSync(join(project.dir, ".npmrc"), "utf8")).toContain(`@admin:registry=${hub.url}/npm/`);

    const found = findEnvironment("admin/capitals", { cwd: project.dir });
    expect(found.dir).toBe(join(project.dir, "node_modules", "@admin", "capitals"));
    expect(found.packageJson.version).toBe("0.1.1");
  });
});

describe("vf eval owner/name, not installed", () => {
  it("installs it from the Hub first, where vf env install would, then evaluates it; a second run finds it", async () => {
    const fresh = mkdtempSync(join(root, "fresh-"));
    const env = { VF_HOME: join(fresh, "vf-home") };
    const evalArgs = ["-m", "scripted", "-b", model.url, "-n", "2", "-r", "1", "--json"];
    const first = await vf(["eval", "admin/capitals@0.1.0", ...evalArgs], { cwd: fresh, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      `admin/capitals@0.1.0 is not installed here: installing it from the Hub at ${hub.url}`,
    );
    expect(first.stderr).toMatch(/installed admin\/capitals@0\.1\.0 into vf's managed folder/);
    const dir = join(fresh, "vf-home", "envs", "node_modules", "@admin", "capitals");
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version).toBe("0.1.0");
    const ran = JSON.parse(first.stdout);
    expect(ran).toMatchObject({ env_id: "admin/capitals", num_examples: 2, rollouts_per_example: 1 });

    const [again, unknown, unreachable] = await Promise.all([
      vf(["eval", "admin/capitals@0.1.0", ...evalArgs], { cwd: fresh, env }),
      vf(["eval", "admin/no-such-env", ...evalArgs], { cwd: fresh, env }),
      vf(["eval", "admin/capitals", "--hub", "http://127.0.0.1:9", ...evalArgs], {
        cwd: mkdtempSync(join(root, "fresh-")),
        env: { VF_HOME: join(root, "unused-vf-home") },
      }),
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("installing");
    for (const [result, pattern] of [
      [unknown, /^error: environment admin\/no-such-env was not found: check the name/],
      [unreachable, /^error: cannot reach the Hub at http:\/\/127\.0\.0\.1:9/],
    ] as const) {
      expect(result.code, result.stderr).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(2); // the install it tried, then why it failed
      expect(lines[0]).toMatch(/is not installed here: installing it from the Hub at/);
      expect(lines[1]).toMatch(pattern);
    }
  });
});

describe("vf env list, search, info, inspect, pull", () => {
  it("shows what the Hub holds, as tables and as JSON", async () => {
    const pulled = join(root, "pulled");
    const [versions, list, search, miss, info, pinned, tree, file, pull] = await Promise.all([
      vf(["env", "versions", "admin/capitals", "--json"]),
      vf(["env", "list", "--json"]),
      vf(["env", "search", "capital"]),
      vf(["env", "search", "no-such-words", "--json"]),
      vf(["env", "info", "admin/capitals"]),
      vf(["env", "info", "admin/capitals@0.1.0", "--json"]),
      vf(["env", "inspect", "admin/capitals@0.1.0"]),
      vf(["env", "inspect", "admin/capitals@0.1.0", "package.json"]),
      vf(["env", "pull", "admin/capitals@0.1.0", "-t", pulled]),
    ]);
    expect(json(versions).items.map((v: { semver: string }) => v.semver)).toEqual(["0.1.1", "0.1.0"]);
    expect(json(list).items.map((e: { id: string }) => e.id)).toContain("admin/capitals");
    expect(search.stdout).toMatch(/^ID\s+LATEST\s+KIND\s+VISIBILITY\s+DESCRIPTION$/m);
    expect(search.stdout).toMatch(/^admin\/capitals\s+0\.1\.1\s+environment\s+public\s+Capital cities/m);
    expect(json(miss).items).toEqual([]);
    expect(info.stdout).toContain("version: 0.1.1 (latest)");
    expect(info.stdout).toMatch(/install: (npx )?vf env install admin\/capitals@0\.1\.1/);
    // npm's own registry still serves the environment's dependencies: only the owner's scope is the Hub's
    expect(info.stdout).toContain(
      `with npm (latest): npm install @admin/capitals --@admin:registry=${hub.url}/npm/`,
    );
    const version = await admin.version("admin", "capitals", "0.1.0");
    expect(json(pinned)).toMatchObject({
      id: "admin/capitals",
      version: { semver: "0.1.0", content_hash: version.content_hash },
    });
    expect(tree.stdout).toMatch(/^file\s+\S+ \S+\s+package\.json$/m);
    expect(tree.stdout).toMatch(/^dir\s+-\s+src\/$/m);
    expect(JSON.parse(file.stdout).version).toBe("0.1.0");
    expect(pull.code, pull.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(pulled, "package.json"), "utf8")).version).toBe("0.1.0");

    const over = await vf(["env", "pull", "admin/capitals", "-t", pulled]);
    expectOneErrorLine(over, 1, /already exists and is not empty: pass --target/);
  });
});

describe("private environments and keys", () => {
  let bobKey: string;

  it("keeps a private environment 'not found' for another user's key until it is made public", async () => {
    const secret = writeSamplePackage(join(root, "secret"), "secret", "0.1.0");
    const pushed = await vf(["env", "push", secret, "--visibility", "private", "--no-load-check"]);
    expect(pushed.stdout).toContain("pushed admin/secret@0.1.0 (private");

    const bob = json(await vf(["hub", "user", "create", "bob", "--hub", hub.url, "--json"]));
    expect(bob).toMatchObject({ user: "bob", is_admin: false });
    bobKey = bob.api_key;
    const asBob = { env: { VF_API_KEY: bobKey } };

    const [info, install, list, mine] = await Promise.all([
      vf(["env", "info", "admin/secret"], asBob),
      vf(["env", "install", "admin/secret", "-g"], { ...asBob, cwd: outside }),
      vf(["env", "list", "--json"], asBob),
      vf(["env", "info", "admin/secret", "--json"]),
    ]);
    expectOneErrorLine(info, 1, /admin\/secret was not found/);
    expectOneErrorLine(install, 1, /admin\/secret was not found/);
    expect(json(list).items.map((e: { id: string }) => e.id)).not.toContain("admin/secret");
    expect(json(mine)).toMatchObject({ visibility: "private" });

    const opened = await vf(["env", "visibility", "admin/secret", "public"]);
    expect(opened.stdout).toContain("admin/secret is now public");
    const [seen, deleted] = await Promise.all([
      vf(["env", "info", "admin/secret"], asBob),
      vf(["env", "delete", "admin/secret", "-y"], asBob),
    ]);
    expect(seen.code, seen.stderr).toBe(0);
    expectOneErrorLine(deleted, 1, /only its owner/);
  });

  it("creates a read key that cannot write, lists it, and refuses it once revoked", async () => {
    const created = json(await vf(["hub", "keys", "create", "ci", "--scope", "read", "--json"]));
    expect(created).toMatchObject({ name: "ci", scope: "read", key: expect.stringMatching(/^vf_/) });
    const keys = json(await vf(["hub", "keys", "--json"]));
    expect(keys).toContainEqual(
      expect.objectContaining({ prefix: created.prefix, scope: "read", revoked_at: null }),
    );

    const asCi = { env: { VF_API_KEY: created.key } };
    expectOneErrorLine(await vf(["env", "visibility", "admin/capitals", "private"], asCi), 1, /read-only/);
    expect((await vf(["hub", "keys", "revoke", created.prefix])).stdout).toContain(
      `revoked ${created.prefix}`,
    );
    expectOneErrorLine(await vf(["whoami"], asCi), 1, /the API key is not valid/);
  });
});

describe("vf env delete", () => {
  it("deletes one version, and a whole environment only with -y when there is no terminal", async () => {
    const one = await vf(["env", "delete", "admin/capitals@0.1.1", "-y"]);
    expect(one.stdout).toContain("deleted admin/capitals@0.1.1");
    const versions = await admin.listVersions("admin", "capitals");
    expect(versions.items.map((v) => v.semver)).toEqual(["0.1.0"]);

    expectOneErrorLine(await vf(["env", "delete", "admin/secret"]), 2, /pass -y to delete admin\/secret/);
    expect((await vf(["env", "delete", "admin/secret", "-y"])).stdout).toContain("deleted admin/secret");
    await expect(admin.envInfo("admin", "secret")).rejects.toMatchObject({ code: "not_found", status: 404 });
  });
});

describe("bad input", () => {
  it("answers each with one line of cause and what to do", async () => {
    const notAnEnv = join(root, "not-an-env");
    mkdirSync(notAnEnv, { recursive: true });
    writeFileSync(join(notAnEnv, "package.json"), `${JSON.stringify({ name: "plain", version: "1.0.0" })}\n`);
    const [unknown, badId, wrongKey, notPackage, unreachable, badBump, badHub] = await Promise.all([
      vf(["env", "info", "admin/no-such-env"]),
      vf(["env", "install", "not-an-id"], { cwd: outside }),
      vf(["env", "list"], { env: { VF_API_KEY: "vf_not_a_real_key" } }),
      vf(["env", "push", notAnEnv]),
      vf(["env", "list", "--hub", "http://127.0.0.1:9"]),
      vf(["env", "push", "--bump", "major"]),
      vf(["whoami", "--hub", "not a url"]),
    ]);
    expectOneErrorLine(unknown, 1, /environment admin\/no-such-env was not found: check the name/);
    expectOneErrorLine(badId, 1, /"not-an-id" is not an environment id: use owner\/name/);
    expectOneErrorLine(wrongKey, 1, /the API key is not valid .*: run vf login/);
    expectOneErrorLine(notPackage, 1, /cannot push .*not-an-env: package\.json field "vf"/);
    expectOneErrorLine(unreachable, 1, /cannot reach the Hub at http:\/\/127\.0\.0\.1:9/);
    expectOneErrorLine(badBump, 2, /'major' is invalid\. Allowed choices are patch, minor/);
    expectOneErrorLine(badHub, 2, /--hub must be a URL/);
  });

  it("logs out: the key is forgotten, and public reads still work without one", async () => {
    expect((await vf(["logout"])).stdout).toContain("logged out");
    expectOneErrorLine(await vf(["whoami"]), 1, /needs an API key: run vf login/);
    expect(json(await vf(["env", "list", "--json"])).items.length).toBeGreaterThan(0);
  });
});
