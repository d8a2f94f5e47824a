// A taskset through the Hub, as a user shares one: the real coding-tasks taskset (its sources and
// tasks, in a package of the test's project) is checked and pushed with vf env push, shown as a
// taskset by vf env info and list, installed into another npm project by vf env install (the real npm
// client, from the Hub's registry), evaluated there with the bash harness in the subprocess runtime
// against a scripted model (vf eval owner/name@version --push), and the report, carrying its harness,
// is on the Hub's leaderboard page. A package that says it is a taskset but exports no loadTaskset, or gives no
// tasks, is refused before anything is sent. The real vf binary against a real Hub on loopback.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import type { HubClient } from "@vf-rl/hub/client";
import { runVf, type VfResult } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HubSession, startHubSession } from "./hub-session.ts";
import { type TempProject, tempProject } from "./temp-project.ts";

// Each vf run starts a process (about 1.5 s); an agent run starts more, on 2 shared cores.
vi.setConfig({ testTimeout: 240_000 });

const CODING_TASKS = resolve(import.meta.dirname, "..", "..", "..", "environments", "coding-tasks");
/** js-slugify's reference fix, which the scripted model writes with one bash call. */
const SLUGIFY_FIX = readFileSync(
  join(CODING_TASKS, "tasks", "js-slugify", "fix", "src", "slugify.js"),
  "utf8",
);

let session: HubSession;
let admin: HubClient;
let model: ScriptedServer;
/** Another user's npm project, which installs the taskset from the Hub (vf's packages linked in). */
let consumer: TempProject;

/**
 * The model of the run: on the slug task, one bash call that writes the reference fix, then "Done."
 * once the tool answered; any other task it gives up on at once.
 */
function startCodingModel(): Promise<ScriptedServer> {
  return startScriptedServer({
    tokens: true,
    reply: (request) => {
      if (request.messages.some((message) => message.role === "tool")) return "Done.";
      if (!JSON.stringify(request.messages).includes("stray dashes")) return "I cannot fix this.";
      const command = `cat > src/slugify.js <<'VF_EOF'\n${SLUGIFY_FIX}VF_EOF`;
      return { type: "message", toolCalls: [{ name: "bash", arguments: { command } }] };
    },
  });
}

/**
 * Writes a taskset package of the coding-tasks taskset into the project: its sources (not its tests)
 * and tasks, named `name`, with its TypeScript entry, as an author's own taskset would be.
 */
function writeCodingTaskset(name: string): string {
  const dir = join(session.project.dir, "environments", name);
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const file of readdirSync(join(CODING_TASKS, "src"))) {
    if (file.endsWith(".test.ts") || file === "test-support.ts") continue;
    cpSync(join(CODING_TASKS, "src", file), join(dir, "src", file));
  }
  cpSync(join(CODING_TASKS, "tasks"), join(dir, "tasks"), { recursive: true });
  cpSync(join(CODING_TASKS, "README.md"), join(dir, "README.md"));
  const original = JSON.parse(readFileSync(join(CODING_TASKS, "package.json"), "utf8"));
  const pkg = {
    name,
    version: "0.1.0",
    description: original.description,
    type: "module",
    exports: { ".": "./src/index.ts" },
    files: ["src", "tasks", "README.md"],
    vf: { ...original.vf, id: name },
    peerDependencies: original.peerDependencies,
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

/** A package that says it is a taskset, with `source` as its entry. */
function writeTasksetPackage(name: string, source: string): string {
  const dir = join(session.project.dir, "environments", name);
  mkdirSync(dir, { recursive: true });
  const pkg = {
    name,
    version: "0.1.0",
    type: "module",
    exports: { ".": "./index.ts" },
    vf: { id: name, kind: "taskset" },
    peerDependencies: { "@vf-rl/core": "*" },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(dir, "index.ts"), source);
  return dir;
}

beforeAll(async () => {
  session = await startHubSession();
  admin = session.admin;
  model = await startCodingModel();
  consumer = await tempProject();
  writeFileSync(join(consumer.dir, "package.json"), `${JSON.stringify({ name: "evals", private: true })}\n`);
}, 120_000);
afterAll(async () => {
  await model?.close();
  await session?.close();
  await consumer?.remove();
});

const vf = (args: string[]) => session.vf(args);
/** `vf ARGS` in the consumer's project, as admin. */
const vfThere = (args: string[]) => runVf(args, { cwd: consumer.dir, env: session.env, timeoutSeconds: 240 });

/** The one line a failed command prints: an error with what to do, and no stack. */
function expectOneErrorLine(result: VfResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
}

describe("a taskset through the Hub", () => {
  it("refuses a taskset that exports no loadTaskset, or gives no tasks, in one line, and sends nothing", async () => {
    const noLoader = writeTasksetPackage("no-loader", "export const loadEnvironment = () => ({});\n");
    const empty = writeTasksetPackage(
      "no-tasks",
      `export const loadTaskset = () => ({ id: "no-tasks", tasks: async () => [], score: async () => ({ reward: 0, metrics: {} }) });\n`,
    );
    const [refused, none] = await Promise.all([vf(["env", "push", noLoader]), vf(["env", "push", empty])]);
    expectOneErrorLine(refused, /cannot push .*no-loader: it does not load \(.*does not export loadTaskset/);
    expectOneErrorLine(none, /cannot push .*no-tasks: it does not load \(taskset "no-tasks" gives no tasks/);
    await expect(admin.envInfo("admin", "no-loader")).rejects.toMatchObject({ code: "not_found" });
    await expect(admin.envInfo("admin", "no-tasks")).rejects.toMatchObject({ code: "not_found" });
  });

  it("pushes the coding taskset after loading its tasks, and shows it as a taskset", async () => {
    const dir = writeCodingTaskset("coding-tasks");
    const pushed = await vf(["env", "push", dir]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain("pushed admin/coding-tasks@0.1.0 (public");

    const [info, list, json, tasksets] = await Promise.all([
      vf(["env", "info", "admin/coding-tasks"]),
      vf(["env", "list"]),
      vf(["env", "info", "admin/coding-tasks@0.1.0", "--json"]),
      vf(["env", "list", "--kind", "taskset", "--json"]),
    ]);
    expect(info.stdout).toMatch(/^admin\/coding-tasks {2}\(taskset, public\)$/m);
    expect(info.stdout).toMatch(/^evaluate: (npx )?vf eval admin\/coding-tasks --harness bash/m);
    expect(list.stdout).toMatch(/^ID\s+LATEST\s+KIND\s+VISIBILITY\s+DESCRIPTION$/m);
    expect(list.stdout).toMatch(/^admin\/coding-tasks\s+0\.1\.0\s+taskset\s+public\s+Small JavaScript/m);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: "taskset", version: { kind: "taskset" } });
    expect(JSON.parse(tasksets.stdout).items.map((e: { id: string }) => e.id)).toEqual([
      "admin/coding-tasks",
    ]);
  });

  it("installs it from the Hub with npm and evaluates it with the bash harness; the report carries the harness", async () => {
    const installed = await vfThere(["env", "install", "admin/coding-tasks@0.1.0"]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(
      `installed admin/coding-tasks@0.1.0 (content ${(await admin.version("admin", "coding-tasks", "0.1.0")).content_hash.slice(0, 12)}) into ${join("node_modules", "@admin", "coding-tasks")}`,
    );
    expect(installed.stderr).toMatch(/run it with: (npx )?vf eval admin\/coding-tasks --harness bash/);
    const manifest = JSON.parse(readFileSync(join(consumer.dir, "package.json"), "utf8"));
    expect(manifest.dependencies).toEqual({ "@admin/coding-tasks": "0.1.0" });
    // npm took the Hub's tarball: the lockfile pins the integrity the Hub gave the version.
    const lock = JSON.parse(readFileSync(join(consumer.dir, "package-lock.json"), "utf8"));
    expect(lock.packages["node_modules/@admin/coding-tasks"].integrity).toBe(
      (await admin.version("admin", "coding-tasks", "0.1.0")).integrity,
    );

    const evaluated = await vfThere([
      "eval",
      "admin/coding-tasks@0.1.0",
      "--harness",
      "bash",
      "--runtime",
      "subprocess",
      "-m",
      "scripted",
      "-b",
      model.url,
      "-n",
      "2",
      "-r",
      "1",
      "-s",
      "--push",
    ]);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    // js-slugify is fixed (1); py-median, which the model gives up on, is not (0).
    expect(evaluated.stderr).toMatch(
      /report \d+: admin\/coding-tasks@0\.1\.0 with scripted, 2 rollouts, avg reward 0\.500/,
    );

    const version = await admin.version("admin", "coding-tasks", "0.1.0");
    const [report] = (await admin.listReports("admin", "coding-tasks")).items;
    expect(report).toMatchObject({
      version: "0.1.0",
      content_hash: version.content_hash,
      model: "scripted",
      harness: "bash",
      metadata: { harness: "bash", runtime: "subprocess" },
      avg_reward: 0.5,
      status: "complete",
    });
    const board = await admin.leaderboard("admin", "coding-tasks");
    expect(board.groups[0]!.entries).toEqual([
      expect.objectContaining({ model: "scripted", harness: "bash", best_reward: 0.5 }),
    ]);

    // Another version label than the one installed is not run in its place: vf installs that one
    // from the Hub first, and the Hub has no 0.9.0, so nothing runs and 0.1.0 stays installed.
    const other = await vfThere(["eval", "admin/coding-tasks@0.9.0", "-m", "scripted", "-b", model.url]);
    expect(other.code, other.stderr).toBe(1);
    expect(other.stderr).toContain(
      `admin/coding-tasks@0.9.0 is not installed here: installing it from the Hub at ${session.hub.url}`,
    );
    expect(other.stderr).toMatch(
      /^error: version "0\.9\.0" of admin\/coding-tasks was not found: pick one of 0\.1\.0, or latest$/m,
    );
    const kept = JSON.parse(readFileSync(join(consumer.dir, "package.json"), "utf8"));
    expect(kept.dependencies["@admin/coding-tasks"]).toBe("0.1.0");

    // Pushed again from its folder (named for the harness), the run is the same report: nothing sent.
    const runs = join(consumer.dir, "outputs", "evals", "admin--coding-tasks--scripted--bash");
    const again = await vfThere(["eval", "push", join(runs, readdirSync(runs)[0]!), "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ report: { id: report!.id, harness: "bash" }, sent: 0 });
  });

  it("shows the taskset badge and the report's harness on its leaderboard page", async () => {
    const page = await (await fetch(`${session.hub.url}/admin/coding-tasks`)).text();
    expect(page).toContain('<span class="badge taskset"');
    const board = page.slice(page.indexOf("<h2>Leaderboard</h2>"), page.indexOf("<h2>Reports</h2>"));
    expect(board).toContain("<th>Harness</th>");
    expect(board).toMatch(/<td>scripted<\/td><td class="harness"><code>bash<\/code><\/td><td>0\.500<\/td>/);
  });
});
