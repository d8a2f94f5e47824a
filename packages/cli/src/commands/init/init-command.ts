/**
 * `vf init <name>`: writes a new environment package that evaluates and passes its own tests
 * straight away: package.json with the `vf` field, an entry exporting `loadEnvironment(args)` with
 * a zod schema, a small dataset, a rubric, a README and a test.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "@vf-rl/core/errors";
import type { Command } from "commander";
import { UsageError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";

const TEMPLATE = fileURLToPath(new URL("../../../templates/environment/", import.meta.url));
const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export interface InitOptions {
  name: string;
  /** Parent folder; default ./environments. */
  path: string;
  description?: string;
  force?: boolean;
}

/** Writes the package and returns its folder and the files written (relative). */
export async function initEnvironment(options: InitOptions): Promise<{ dir: string; files: string[] }> {
  if (!NAME.test(options.name)) {
    throw new UsageError(
      `"${options.name}" is not a valid environment name: use lower-case words joined by "-", e.g. my-env`,
    );
  }
  const dir = resolve(options.path, options.name);
  if (existsSync(dir) && (await readdir(dir)).length > 0 && !options.force) {
    throw new UserError(
      `${dir} already exists and is not empty: pick another name or -p folder, or pass --force`,
    );
  }
  const values: Record<string, string> = {
    name: options.name,
    description: options.description ?? `Capital cities, answered in <answer> tags (a vf environment).`,
    dir: relative(process.cwd(), dir).startsWith("..") ? dir : relative(process.cwd(), dir) || ".",
  };
  const files: string[] = [];
  for (const file of await listFiles(TEMPLATE)) {
    const target = join(dir, file.replace(/\.tpl$/, ""));
    const text = await readFile(join(TEMPLATE, file), "utf8");
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.endsWith(".tpl") ? fill(text, values) : text);
    files.push(relative(dir, target));
  }
  await writeFile(join(dir, "package.json"), `${JSON.stringify(packageJson(values), null, 2)}\n`);
  files.push("package.json");
  return { dir, files: files.sort() };
}

/** The new package's manifest: an ESM TypeScript package whose `vf` field makes it an environment. */
function packageJson(values: Record<string, string>) {
  return {
    name: values.name,
    version: "0.1.0",
    description: values.description,
    type: "module",
    exports: { ".": "./src/index.ts" },
    files: ["src", "data", "README.md", "vitest.config.ts"],
    scripts: { test: "vitest run" },
    vf: {
      id: values.name,
      numExamples: 5,
      rolloutsPerExample: 3,
      sampling: { max_tokens: 64 },
      description: values.description,
      tags: ["example", "single-turn"],
    },
    // The host project provides vf: optional peers, so installing from a registry never fetches them.
    peerDependencies: { "@vf-rl/core": "*", zod: "^4" },
    peerDependenciesMeta: { "@vf-rl/core": { optional: true }, zod: { optional: true } },
  };
}

export function registerInit(program: Command, io: Output): void {
  program
    .command("init")
    .description("write a new environment package that runs and passes its own test")
    .argument("<name>", "environment id, lower-case words joined by '-'")
    .option("-p, --path <dir>", "parent folder", "environments")
    .option("-d, --description <text>", "one line saying what the environment is")
    .option("--force", "write into a folder that is not empty")
    .addHelpText(
      "after",
      `
Examples:
  vf init my-env                   writes ./environments/my-env
  vf init my-env -p .              writes ./my-env
Then:
  vf eval ./environments/my-env    evaluate it (the built-in model unless -m is given)
  cd environments/my-env && npm test`,
    )
    .action(async (name: string, flags: { path: string; description?: string; force?: boolean }) => {
      const { dir, files } = await initEnvironment({ name, ...flags });
      const near = relative(process.cwd(), dir);
      const shown = near === "" ? "." : near.startsWith("..") ? dir : near;
      io.out(`created ${shown}/`);
      for (const file of files) io.out(`  ${file}`);
      io.out("");
      io.out("next:");
      io.out(`  vf eval ${shown.startsWith(".") || shown.startsWith("/") ? shown : `./${shown}`}`);
      io.out(`  cd ${shown} && npm test`);
    });
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
