/**
 * Outside a project, an install puts packages in vf's managed folder, where nothing provides the
 * peer dependencies an environment expects from its host (`@vf-rl/core`, `zod`). There vf is the
 * host: the copies vf runs with (resolved from this package, installed beside vf's others) are
 * linked into the managed folder's node_modules, so the package imports the very modules vf uses
 * (one `Environment` class, so `instanceof` holds). Inside a project the project provides its
 * peers, as npm would.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Links the peers of the package in `packageDir` that `root/node_modules` lacks to vf's own copies;
 * returns the peers vf has no copy of (the package may fail to load without them).
 */
export function provideHostPeers(root: string, packageDir: string): string[] {
  const json = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  const missing: string[] = [];
  for (const name of Object.keys(json.peerDependencies ?? {})) {
    const target = join(root, "node_modules", name);
    if (existsSync(join(target, "package.json"))) continue;
    const own = ownCopy(name);
    if (!own) {
      missing.push(name);
      continue;
    }
    // A link left by a vf that has since moved points nowhere: replace it.
    if (isSymlink(target)) unlinkSync(target);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(own, target, "junction");
  }
  return missing;
}

/** The folder of package `name` as vf itself resolves it (the nearest node_modules up), or null. */
function ownCopy(name: string): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
