/**
 * Imports an environment package's entry module, TypeScript or JavaScript, so that the package sees
 * the host's own `@vf-rl/core` and `zod`.
 *
 * One copy matters: an environment built on a second copy of core has `Environment`, `Rubric` and
 * the error classes of that copy, so `instanceof` fails and its errors read as vf's own faults. npm
 * can leave a second copy where an author ran `npm install` inside the environment's folder, so the
 * host resolves those two names itself for the package's own files (not for its dependencies, which
 * may want other versions).
 *
 * Run from TypeScript sources (inside vf's repository, under tsx or vitest) the running loader
 * already reads TypeScript and resolves the workspace's single copy, so a plain import does.
 */
import { realpathSync } from "node:fs";
import { register } from "node:module";
import { pathToFileURL } from "node:url";

/** The packages an environment shares with its host. */
const SHARED = ["@vf-rl/core", "zod"];

const FROM_SOURCE = import.meta.url.endsWith(".ts");

// A module-resolution hook (run by Node in its loader thread, so it is plain JavaScript): imports of
// the shared packages from the environment package's own files resolve as if made from this file.
const SHARE_HOOK = `
let names = [];
let scope = "";
let parentURL = "";
export function initialize(data) {
  ({ names, scope, parentURL } = data);
}
export async function resolve(specifier, context, nextResolve) {
  const from = context.parentURL ?? "";
  const own = from.startsWith(scope) && !from.slice(scope.length).includes("/node_modules/");
  const shared = own && names.some((name) => specifier === name || specifier.startsWith(name + "/"));
  return nextResolve(specifier, shared ? { ...context, parentURL } : context);
}
`;

const hooked = new Set<string>();

/** Imports `entry`, a module of the environment package in `packageDir`. */
export async function importEntry(entry: string, packageDir: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(entry).href;
  if (FROM_SOURCE) return (await import(url)) as Record<string, unknown>;
  shareHostModules(packageDir);
  if (/\.[cm]?tsx?$/.test(entry)) await readTypeScript();
  return (await import(url)) as Record<string, unknown>;
}

let typeScript: Promise<void> | undefined;

/**
 * Registers tsx's loader for the rest of the process, once. (Its scoped `tsImport` would load the
 * shared packages a second time under its own URLs, which is the very thing to avoid.)
 */
function readTypeScript(): Promise<void> {
  typeScript ??= import("tsx/esm/api").then(({ register }) => {
    register();
  });
  return typeScript;
}

function shareHostModules(packageDir: string): void {
  const scope = pathToFileURL(realpathSync(packageDir)).href.replace(/\/?$/, "/");
  if (hooked.has(scope)) return;
  hooked.add(scope);
  register(`data:text/javascript,${encodeURIComponent(SHARE_HOOK)}`, {
    data: { names: SHARED, scope, parentURL: import.meta.url },
  });
}
