/**
 * What `npm pack` of a workspace package would ship, and what is wrong with it: files that only
 * tests need (by name), and files that import a package the published package does not declare
 * (a dev dependency, or nothing at all), which a user's install would not have.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { init, parse } from "es-module-lexer";

const run = promisify(execFile);

/**
 * Names of files that exist for tests only (the rule of scripts/build.mjs, which leaves them out
 * of dist/), and folders of tests, so none may reach a tarball.
 */
const TEST_ONLY =
  /\.test\.|\.contract\.|\.fixture\.|(^|\/)test-support\.|(^|\/)(fixtures|test-packages|test-output|test)\//;

/** One package's tarball as `npm pack --dry-run --json` describes it, and its faults. */
export interface PackedPackage {
  name: string;
  /** Bytes of the .tgz. */
  size: number;
  /** Bytes of its files once unpacked. */
  unpackedSize: number;
  paths: string[];
  /** One line per fault: the file and what is wrong with it. */
  problems: string[];
}

/** Packs the package in `dir` without writing the tarball, and checks every file it would hold. */
export async function inspectPack(dir: string, env: NodeJS.ProcessEnv): Promise<PackedPackage> {
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: dir,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout) as [
    { name: string; size: number; unpackedSize: number; files: { path: string }[] },
  ];
  const paths = pack.files.map((file) => file.path);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const problems: string[] = [];
  for (const path of paths) {
    // vf init's templates include the scaffold's own test, which it writes into a user's project.
    if (TEST_ONLY.test(path) && !path.startsWith("templates/")) problems.push(`${path}: a test-only file`);
    if (path.startsWith("src/") && path.endsWith(".ts")) problems.push(`${path}: a TypeScript source`);
    if (!/\.(m?js|d\.ts)$/.test(path)) continue;
    for (const specifier of await bareImports(readFileSync(join(dir, path), "utf8"))) {
      const name = packageName(specifier);
      if (!declared.has(name)) {
        problems.push(`${path}: imports ${specifier}, which is not a dependency or peer of ${manifest.name}`);
      }
    }
  }
  return { name: pack.name, size: pack.size, unpackedSize: pack.unpackedSize, paths, problems };
}

/** The bare specifiers (packages, not relative paths or Node's builtins) a module imports. */
export async function bareImports(source: string): Promise<string[]> {
  await init;
  // A .d.ts is not JavaScript; its `import type`/`import("x").T` forms name modules the same way.
  const [imports] = parse(source.replace(/\bimport\s+type\b/g, "import"));
  return imports
    .map((entry) => entry.n)
    .filter((specifier): specifier is string => specifier !== undefined)
    .filter((specifier) => !/^(\.|\/|node:|data:|file:)/.test(specifier))
    .filter((specifier) => !builtinModules.includes(packageName(specifier)));
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}
