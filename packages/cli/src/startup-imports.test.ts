/**
 * `vf --help`, a typo'd flag and every command's own help answer without loading the toolkit: the
 * modules that declare commands import only commander, node's built-ins, their light neighbours and
 * the error classes; what a command does is imported when it runs. This walks the static imports
 * from program.ts as Node would load them (`import type` is erased; any other import, even of types
 * only, loads its module under verbatimModuleSyntax).
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));
// Light entry points of our packages: the error classes and the base model's path and name; and
// picocolors (one small file) for the colour of error lines.
const ALLOWED_PACKAGES = new Set([
  "commander",
  "picocolors",
  "@vf-rl/core/errors",
  "@vf-rl/core/providers",
  "@vf-rl/engine/base-model",
]);

/** The specifiers a module loads when it is loaded itself. */
function staticImports(source: string): string[] {
  const found: string[] = [];
  const statement = /^(?:import|export)\s+(type\s+)?[^;()]*?from\s+"([^"]+)"/gm;
  for (const match of source.matchAll(statement)) if (!match[1]) found.push(match[2]!);
  for (const match of source.matchAll(/^import\s+"([^"]+)"/gm)) found.push(match[1]!);
  return found;
}

/** Every package reached from `entry` through static imports, as `[package, importing file]`. */
function packagesLoadedBy(entry: string): Array<[string, string]> {
  const packages: Array<[string, string]> = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
      else if (!specifier.startsWith("node:")) packages.push([specifier, file.slice(SRC.length + 1)]);
    }
  };
  visit(entry);
  return packages;
}

describe("vf's start", () => {
  it("reads import statements as Node loads them", () => {
    const source = [
      'import type { A } from "erased";',
      'import { type B } from "kept-for-side-effects";',
      "import {\n  c,\n  type D,\n} from 'ignored-quotes';",
      'import { e } from "./neighbour.ts";',
      'export { f } from "re-exported";',
      'export type { G } from "type-only";',
      'import "side-effect";',
      'const lazy = await import("lazy");',
    ].join("\n");
    expect(staticImports(source)).toEqual([
      "kept-for-side-effects",
      "./neighbour.ts",
      "re-exported",
      "side-effect",
    ]);
  });

  it("declares every command without loading the toolkit, zod or the OpenAI client", () => {
    const heavy = packagesLoadedBy(resolve(SRC, "main.ts")).filter(([pkg]) => !ALLOWED_PACKAGES.has(pkg));
    expect(heavy.map(([pkg, by]) => `${pkg} (imported by ${by})`)).toEqual([]);
  });
});
