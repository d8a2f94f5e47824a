#!/usr/bin/env node
/**
 * Builds the workspace's packages for publishing: each package's src/ compiled by tsc into dist/
 * (JavaScript and .d.ts, relative `.ts` imports rewritten to `.js`), and the files src/ holds
 * besides TypeScript (the python sandbox's scripts, a test environment's package.json) copied
 * beside them. Development inside this repository needs none of this: the "vf-source" export
 * condition runs the sources (see packages/cli/bin/vf.js).
 *
 *   node scripts/build.mjs                    every package, dependencies first
 *   node scripts/build.mjs packages/core      one package and the workspace packages it depends on
 *
 * A package whose dist/ is newer than every file of its src/ is left as it is. Each package's
 * `prepack` runs this, so `npm pack` and `npm publish` always ship a fresh build.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Files from elsewhere in the repository that a package ships: [from the root, into the package]. */
const SHIPPED_FROM_ROOT = {
  // `vf setup` writes the shipped training and eval configs into a user's workspace.
  "@vf-rl/cli": [
    ["configs/train", "configs/train"],
    ["configs/eval", "configs/eval"],
  ],
};
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

/** The workspace's packages by name: folder and the workspace packages it depends on (any kind). */
function workspacePackages() {
  const rootJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const folders = rootJson.workspaces.flatMap((pattern) => {
    const parent = join(root, pattern.replace(/\/\*$/, ""));
    return readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((dir) => existsSync(join(dir, "package.json")));
  });
  const byName = new Map();
  for (const dir of folders) {
    const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    // A private package is never published: it runs from its sources (vf's test helpers).
    if (!json.private) byName.set(json.name, { dir, json });
  }
  for (const pkg of byName.values()) {
    // devDependencies are left out: they are for tests, which are not built.
    const deps = { ...pkg.json.dependencies, ...pkg.json.peerDependencies };
    pkg.deps = Object.keys(deps).filter((name) => byName.has(name));
  }
  return byName;
}

/** `names` and everything they depend on, dependencies first. */
function inBuildOrder(byName, names) {
  const order = [];
  const visit = (name, path) => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`dependency cycle: ${[...path, name].join(" -> ")}`);
    for (const dep of byName.get(name).deps) visit(dep, [...path, name]);
    order.push(name);
  };
  for (const name of names) visit(name, []);
  return order;
}

/** Modification times of the files under dir, except those `skip` matches (by path within dir). */
function fileTimes(dir, skip) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !skip?.test(relative(dir, file)))
    .map((file) => statSync(file).mtimeMs);
}

/** What decides how every package is built: a change to one rebuilds them all. */
const BUILD_RULES = [join(root, "tsconfig.build.json"), fileURLToPath(import.meta.url)];

/**
 * dist/ was written after the last change to src/, package.json and the build's own rules. Test-only
 * files do not count: the test suite builds before it starts and runs the built vf, so a test file
 * edited, or a fixture a test rewrites, must not rebuild a dist/ that running tests are using.
 */
function isFresh(dir) {
  if (!existsSync(join(dir, "dist"))) return false;
  const built = Math.min(...fileTimes(join(dir, "dist")));
  const changed = Math.max(
    ...fileTimes(join(dir, "src"), TEST_ONLY),
    ...[join(dir, "package.json"), ...BUILD_RULES].map((file) => statSync(file).mtimeMs),
  );
  return changed < built;
}

/**
 * Files of src/ that exist for tests only, never built or shipped: tests (x.test.ts), contract suites
 * run by several tests (x.contract.ts), fixtures (x.fixture.jsonl, fixtures/), test packages
 * (test-packages/) and a folder's helpers for its tests (test-support.ts, x-test-support.ts). tsconfig.build.json
 * excludes the same TypeScript files.
 */
const TEST_ONLY = /\.test\.|\.contract\.|\.fixture\.|test-support\.ts$|(^|\/)(fixtures|test-packages)\//;

/** Non-TypeScript files of src/ that run with the package. */
function assets(dir) {
  const src = join(dir, "src");
  return readdirSync(src, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".ts"))
    .map((entry) => relative(src, join(entry.parentPath, entry.name)))
    .filter((path) => !TEST_ONLY.test(path));
}

function build(name, pkg) {
  const { dir } = pkg;
  if (!existsSync(join(dir, "tsconfig.build.json"))) {
    throw new Error(
      `${relative(root, dir)} has no tsconfig.build.json: add one that extends ../../tsconfig.build.json`,
    );
  }
  // Built beside dist/ and swapped in whole, so a vf already running from dist/ (another test run's)
  // never finds it half written.
  const next = join(dir, "dist.next");
  const old = join(dir, "dist.old");
  rmSync(next, { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.build.json"), "--outDir", next], {
    stdio: "inherit",
  });
  for (const file of assets(dir)) cpSync(join(dir, "src", file), join(next, file));
  rmSync(old, { recursive: true, force: true });
  if (existsSync(join(dir, "dist"))) renameSync(join(dir, "dist"), old);
  renameSync(next, join(dir, "dist"));
  rmSync(old, { recursive: true, force: true });
  for (const [from, to] of SHIPPED_FROM_ROOT[name] ?? []) {
    rmSync(join(dir, to), { recursive: true, force: true });
    cpSync(join(root, from), join(dir, to), { recursive: true });
  }
}

const byName = workspacePackages();
const wanted = process.argv.slice(2).map((arg) => {
  const dir = resolve(arg);
  const found = [...byName.entries()].find(([, pkg]) => pkg.dir === dir);
  if (!found) throw new Error(`${arg} is not a package of this workspace`);
  return found[0];
});
for (const name of inBuildOrder(byName, wanted.length > 0 ? wanted : [...byName.keys()])) {
  const pkg = byName.get(name);
  if (isFresh(pkg.dir)) continue;
  const started = Date.now();
  build(name, pkg);
  console.log(`built ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
