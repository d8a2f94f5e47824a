/**
 * Reads and checks the package.json of an environment package for the Hub: the `vf` field by core's
 * `EnvPackageJson` schema, plus what the Hub needs on top (a semver version, a name it can serve as
 * `@owner/name`, `@vf-rl/core` as a peer, never a dependency, no NUL character anywhere). Every
 * message names the field at fault.
 */

import { issuePath } from "@vf-rl/core/config";
import { EnvPackageJson } from "@vf-rl/core/loading";
import semver from "semver";
import { nulPath } from "../api/nul-characters.ts";
import { HubError } from "../hub-error.ts";
import type { PackageFile } from "./content-hash.ts";

/** What the Hub keeps of a manifest. */
export interface PackageManifest {
  /** The package name without its scope: the `name` of `owner/name`. */
  name: string;
  /** The scope of the package name, when it has one (it must then be the owner). */
  scope: string | null;
  version: string;
  /** `vf.kind`: an environment (the default) or a taskset. */
  kind: "environment" | "taskset";
  description: string;
  tags: string[];
  /** The whole package.json, as parsed. */
  json: Record<string, unknown>;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Bounds of a package.json: real ones are a few KiB, and nest a handful of levels (exports maps). */
export const MANIFEST_LIMITS = { maxBytes: 1024 * 1024, maxDepth: 64 } as const;

/** The checked manifest of `files`; throws `HubError` `validation_failed` naming the field. */
export function readPackageManifest(files: readonly PackageFile[]): PackageManifest {
  const file = files.find((f) => f.path === "package.json");
  if (!file) throw fieldError("package.json", "is missing: add one at the package root");
  checkManifestSize(file.data.length);
  const text = Buffer.from(file.data).toString("utf8");
  // Checked before parsing: whatever walks the parsed value later (schemas, JSON.stringify, the
  // database's jsonb) recurses, and a deep enough document overflows its stack.
  if (nestingDepth(text) > MANIFEST_LIMITS.maxDepth) {
    throw fieldError(
      "package.json",
      `nests deeper than ${MANIFEST_LIMITS.maxDepth} levels of objects and arrays: flatten it`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fieldError("package.json", `is not valid JSON (${(error as Error).message})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw fieldError("package.json", "must hold a JSON object");
  }
  return checkManifest(json as Record<string, unknown>);
}

/** Refuses a package.json of `bytes` over `MANIFEST_LIMITS.maxBytes`, before it is read. */
export function checkManifestSize(bytes: number): void {
  if (bytes > MANIFEST_LIMITS.maxBytes) {
    throw fieldError("package.json", `is ${bytes} bytes, over ${MANIFEST_LIMITS.maxBytes}: trim it`);
  }
}

/** Checks a parsed package.json object (see `readPackageManifest`). */
export function checkManifest(json: Record<string, unknown>): PackageManifest {
  // The Hub keeps the manifest as jsonb and its description and tags as text: neither holds a NUL.
  const nul = nulPath(json);
  if (nul !== null) throw fieldError(nul, "holds a NUL character (\\u0000): remove it");
  const parsed = EnvPackageJson.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issuePath(issue);
    const hint = field === "vf" ? ': add a "vf" field such as {"id": "my-env"}' : "";
    throw fieldError(field, `${issue.message}${hint}`);
  }
  const pkg = parsed.data;
  if (typeof json.version !== "string" || !semver.valid(json.version)) {
    throw fieldError(
      "version",
      `"${String(json.version ?? "")}" is not a semantic version: use e.g. "0.1.0"`,
    );
  }
  const match = /^(?:@([^/]+)\/)?(.+)$/.exec(pkg.name)!;
  const scope = match[1] ?? null;
  const name = match[2]!;
  if (!NAME.test(name) || (scope !== null && !NAME.test(scope))) {
    throw fieldError(
      "name",
      `"${pkg.name}" must be lower-case letters, digits, '.', '_' or '-' (at most 64)`,
    );
  }
  const deps = json.dependencies as Record<string, unknown> | undefined;
  if (deps && typeof deps === "object" && "@vf-rl/core" in deps) {
    throw fieldError(
      "dependencies.@vf-rl/core",
      'must not be a dependency: move it to "peerDependencies", so the environment uses the host\'s copy',
    );
  }
  return {
    name,
    scope,
    version: json.version,
    kind: pkg.vf.kind ?? "environment",
    description: pkg.vf.description ?? pkg.description ?? "",
    tags: pkg.vf.tags ?? [],
    json,
  };
}

/** The deepest nesting of `[` and `{` in JSON `text` (outside strings), counted without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

function fieldError(field: string, problem: string): HubError {
  const subject = field === "package.json" ? "package.json" : `package.json field "${field}"`;
  return new HubError("validation_failed", `${subject} ${problem}`, { field });
}
