/**
 * `vf init <name>`: writes a new environment package that evaluates and passes its own tests
 * straight away: package.json with the `vf` field, an entry exporting `loadEnvironment(args)` with
 * a zod schema, a small dataset, a rubric, a README and a test. With `--taskset`, a taskset package
 * instead (verifiers v1's `init`): `loadTaskset(args)`, tasks, a tool of the task's, a score of
 * what the agent left, a reference solution, and tests that need no model.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "@vf-rl/core/errors";
import type { Command } from "commander";
import { UsageError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import { vfCommand } from "../../vf-command.ts";
import { addWorkspace, enclosingProject, workspacePattern } from "./project-workspaces.ts";

const TEMPLATES = {
  environment: fileURLToPath(new URL("../../../templates/environment/", import.meta.url)),
  taskset: fileURLToPath(new URL("../../../templates/taskset/", import.meta.url)),
};
const CLI_PACKAGE_JSON = fileURLToPath(new URL("../../../package.json", import.meta.url));
// verifiers' environments are named with underscores (my_env); npm names take "-" (my-env).
const NAME = /^[a-z][a-z0-9]*([-_][a-z0-9]+)*$/;

export interface InitOptions {
  /** The environment's id; its npm package name is the id with "_" as "-". */
  name: string;
  /** Parent folder; default ./environments. */
  path: string;
  description?: string;
  force?: boolean;
  /** A taskset package (for agents) instead of an environment. */
  taskset?: boolean;
}

/** Writes the package and returns its folder and the files written (relative). */
export async function initEnvironment(options: InitOptions): Promise<{ dir: string; files: string[] }> {
  if (!NAME.test(options.name)) {
    throw new UsageError(
      `"${options.name}" is not a valid environment name: use lower-case words joined by "-" or "_", e.g. my-env`,
    );
  }
  const dir = resolve(options.path, options.name);
  if (existsSync(dir) && (await readdir(dir)).length > 0 && !options.force) {
    throw new UserError(
      `${dir} already exists and is not empty: pick another name or -p folder, or pass --force`,
    );
  }
  const kind = options.taskset ? "taskset" : "environment";
  const values: Record<string, string> = {
    name: options.name,
    packageName: options.name.replaceAll("_", "-"),
    vfVersion: (JSON.parse(await readFile(CLI_PACKAGE_JSON, "utf8")) as { version: string }).version,
    description:
      options.description ??
      (kind === "taskset"
        ? "Capital cities for an agent: submit the answer with the task's tool or in answer.txt (a vf taskset)."
        : "Capital cities, written backwards: each sentence reversed inside <reversed_text> tags (a vf environment)."),
    dir: shownPath(dir),
    evalCommand: vfCommand(`eval ${asEnvPath(shownPath(dir))}`),
    validateCommand: vfCommand(`eval validate ${asEnvPath(shownPath(dir))}`),
  };
  const template = TEMPLATES[kind];
  const files: string[] = [];
  for (const file of await listFiles(template)) {
    const target = join(dir, file.replace(/\.tpl$/, ""));
    const text = await readFile(join(template, file), "utf8");
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.endsWith(".tpl") ? fill(text, values) : text);
    files.push(relative(dir, target));
  }
  await writeFile(join(dir, "package.json"), `${JSON.stringify(packageJson(values, kind), null, 2)}\n`);
  files.push("package.json");
  return { dir, files: files.sort() };
}

/**
 * The new package's manifest: an ESM TypeScript package whose `vf` field makes it an environment
 * (or a taskset). vf loads its TypeScript source as it is; no build step.
 */
function packageJson(values: Record<string, string>, kind: "environment" | "taskset") {
  const core = `^${values.vfVersion}`;
  const common = {
    name: values.packageName,
    version: "0.1.0",
    description: values.description,
    keywords: kind === "taskset" ? ["vf-environment", "vf-taskset"] : ["vf-environment"],
    type: "module",
    exports: { ".": "./src/index.ts" },
    files: ["src", "data", "README.md"],
    scripts: { test: "vitest run" },
  };
  // The host provides core and zod, so the package sees vf's own classes. Required peers, not
  // optional ones: npm keeps a workspace's own link to @vf-rl/core only for a required peer.
  const peerDependencies = { "@vf-rl/core": core, zod: "^4" };
  if (kind === "taskset") {
    return {
      ...common,
      vf: {
        id: values.name,
        kind,
        numExamples: 6,
        rolloutsPerExample: 2,
        description: values.description,
        tags: ["example", "agents", "tools"],
      },
      peerDependencies,
      // Its tests make working folders with @vf-rl/agents' runtimes.
      devDependencies: { "@vf-rl/agents": core, "@vf-rl/core": core, vitest: "^4.1.12", zod: "^4" },
    };
  }
  return {
    ...common,
    vf: {
      id: values.name,
      // the eval split's size (numEval's default): asking for more rows than exist is a warning
      numExamples: 5,
      rolloutsPerExample: 3,
      // a 40-character sentence and its tags are about 75 tokens of the built-in model's bytes
      sampling: { max_tokens: 128 },
      description: values.description,
      tags: ["example", "single-turn"],
    },
    peerDependencies,
    // What the package's own `npm install && npm test` needs.
    devDependencies: { "@vf-rl/core": core, vitest: "^4.1.12", zod: "^4" },
  };
}

export function registerInit(program: Command, io: Output): void {
  program
    .command("init")
    .description("write a new environment package that runs and passes its own test")
    .argument("<name>", "environment id, lower-case words joined by '-'")
    .option("-p, --path <dir>", "parent folder", "environments")
    .option("-d, --description <text>", "one line saying what the environment is")
    .option(
      "--taskset",
      "a taskset for agents (tasks, a tool, a score of the folder left) instead of an environment",
    )
    .option("--force", "write into a folder that is not empty")
    .option("--no-install", "inside an npm workspace, do not run npm install to add it to the lockfile")
    .addHelpText(
      "after",
      `
Examples:
  vf init my-env                   writes ./environments/my-env
  vf init my-env -p .              writes ./my-env
  vf init my_env                   id my_env, npm package my-env
  vf init my-tasks --taskset       a taskset: agents (--harness) work on its tasks
Inside an npm project (a package.json above), the new folder joins the project's workspaces
("environments/*" is added unless a pattern covers it) and npm install runs at the project's root:
one install serves the project and the environment (one @vf-rl/core), and npm ci keeps working.
Then:
  vf eval ./environments/my-env    evaluate it (the built-in model unless -m is given)
  cd environments/my-env && npm test`,
    )
    .action(async (name: string, flags: InitFlags) => {
      const { dir, files } = await initEnvironment({ name, ...flags });
      const shown = shownPath(dir);
      io.out(`created ${shown}/`);
      for (const file of files) io.out(`  ${file}`);
      const { npmRoot, runNpm } = await import("@vf-rl/hub/client");
      let workspace = npmRoot(dir);
      const project = workspace === dir ? enclosingProject(dir) : undefined;
      // A project that is itself a workspace member cannot hold workspaces: it stays apart.
      if (project !== undefined && npmRoot(project) === project) {
        const pattern = workspacePattern(project, dir);
        addWorkspace(project, pattern);
        io.err(`added "${pattern}" to the workspaces of ${shownPath(join(project, "package.json"))}`);
        workspace = project;
      }
      const inWorkspace = workspace !== dir;
      if (inWorkspace && flags.install) {
        io.err(`adding it to the workspace at ${shownPath(workspace)}: npm install`);
        await runNpm({ cwd: workspace, args: ["install"] });
      }
      io.out("");
      io.out("next:");
      if (inWorkspace && !flags.install) {
        const root = shownPath(workspace);
        io.out(root === "." ? "  npm install" : `  (cd ${root} && npm install)`);
      }
      if (flags.taskset) {
        io.out(
          `  ${vfCommand(`eval validate ${asEnvPath(shown)}`)}    no model: its reference answers score 1`,
        );
        io.out(`  ${vfCommand(`eval ${asEnvPath(shown)} --harness bash -m MODEL`)}    an agent on its tasks`);
      } else {
        io.out(`  ${vfCommand(`eval ${asEnvPath(shown)}`)}`);
      }
      io.out(inWorkspace ? `  cd ${shown} && npm test` : `  cd ${shown} && npm install && npm test`);
      io.out("");
      for (const line of flags.taskset ? AGENTS_NEED_A_MODEL : BUILT_IN_MODEL) io.out(line);
    });
}

interface InitFlags {
  path: string;
  description?: string;
  force?: boolean;
  taskset?: boolean;
  install: boolean;
}

/** `dir` relative to the working folder when it is below it, else absolute. */
function shownPath(dir: string): string {
  const near = relative(process.cwd(), dir);
  return near === "" ? "." : near.startsWith("..") ? dir : near;
}

/** What `vf eval` without -m can score, said after every init (the engine's models/README.md has its training). */
const BUILT_IN_MODEL = [
  "vf eval without -m runs the built-in model: 148k parameters, trained only on vf's own tasks in their",
  "own wording (reverse-text, alphabet-sort, tool-arithmetic's calculator, sums in gsm8k's format).",
  "It scores on this scaffold's reversal; on a task of your own expect 0: evaluate that with -m and",
  "any OpenAI-compatible model.",
];

/** What a new taskset needs to be run, said after `vf init --taskset`. */
const AGENTS_NEED_A_MODEL = [
  "An agent needs a model that calls tools: give one with -m (the built-in model cannot drive an agent).",
  "The harness (--harness bash, chat, claude-code, codex, opencode) is the agent program; vf serves it",
  "the model and the task's tools.",
];

/** A folder as `vf eval` reads it as a path rather than an environment's name: `./environments/x`. */
function asEnvPath(path: string): string {
  return path.startsWith(".") || path.startsWith("/") ? path : `./${path}`;
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (match, key: string) => values[key] ?? match);
}

async function listFiles(root: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(join(root, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(root, path)));
    else files.push(path);
  }
  return files;
}
