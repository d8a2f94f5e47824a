// @vf-rl/core's public API is a contract: the root export is the authoring surface, /errors holds
// every error class core declares (the root re-exports it whole), and every other subpath exports
// exactly the names code outside core imports (the other packages, environments, examples,
// benchmarks, READMEs), each named explicitly and each with a line of JSDoc. A name nothing outside
// uses is private; a name exported here must be documented where it is declared.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const core = resolve(import.meta.dirname, "..");
const repo = resolve(core, "..", "..");
const manifest = JSON.parse(readFileSync(join(core, "package.json"), "utf8")) as {
  exports: Record<string, { "vf-source": string }>;
};

/** Subpath → its entry file, e.g. "./results" → src/results/index.ts. */
const entries = Object.entries(manifest.exports).map(([subpath, targets]) => ({
  subpath,
  file: join(core, targets["vf-source"]),
}));

/** Names an entry exports and the module each comes from; `export *` is reported as "*". */
function exportsOf(file: string): { name: string; from: string }[] {
  const text = readFileSync(file, "utf8");
  const found: { name: string; from: string }[] = [];
  for (const match of text.matchAll(/export\s+\*\s+from\s+"([^"]+)"/g)) {
    found.push({ name: "*", from: resolve(dirname(file), match[1]!) });
  }
  for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    for (const part of match[1]!.split(",")) {
      const name = part.trim().replace(/^type\s+/, "");
      if (name) found.push({ name: name.split(/\s+as\s+/).at(-1)!, from: resolve(dirname(file), match[2]!) });
    }
  }
  return found;
}

/** Files outside core that import from it: sources, tests, templates, examples, benchmarks, READMEs. */
function outsideFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!["node_modules", "dist", ".git", "outputs"].includes(entry.name) && path !== join(core, "src"))
          walk(path);
      } else if (/\.(ts|tpl|md)$/.test(entry.name)) {
        files.push(path);
      }
    }
  };
  for (const dir of ["packages", "environments", "examples", "bench"]) walk(join(repo, dir));
  files.push(join(repo, "README.md"));
  return files;
}

/** Subpath ("./results") → names imported from it outside core, with one file that does. */
function importedOutside(): Map<string, Map<string, string>> {
  const used = new Map<string, Map<string, string>>();
  const patterns = [
    /(?:import|export)\s+(?:type\s+)?\{([\w\s,]*)\}\s*from\s*"@vf-rl\/core(\/[a-z]+)?"/g,
    /\{([\w\s,]*)\}\s*=\s*await\s+import\(\s*"@vf-rl\/core(\/[a-z]+)?"\s*\)/g,
  ];
  for (const file of outsideFiles()) {
    const text = readFileSync(file, "utf8");
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        const subpath = `.${match[2] ?? ""}`;
        const names = used.get(subpath) ?? new Map<string, string>();
        used.set(subpath, names);
        for (const part of match[1]!.split(",")) {
          const name = part
            .trim()
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)[0]!;
          if (name && !names.has(name)) names.set(name, relative(repo, file));
        }
      }
    }
  }
  return used;
}

/** Whether `name` is declared in `file` (or re-exported from one that declares it) with JSDoc before it. */
function documented(name: string, file: string, seen = new Set<string>()): boolean {
  if (seen.has(file) || !existsSync(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  const declaration = new RegExp(
    `(\\*/\\s*(?://[^\\n]*\\n\\s*)*)?export\\s+(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(?:class|function|const|let|interface|type|enum)\\s+${name}\\b`,
    "g",
  );
  const declarations = [...text.matchAll(declaration)];
  if (declarations.length > 0) return declarations.some((match) => match[1] !== undefined);
  return exportsOf(file)
    .filter((entry) => entry.name === name)
    .some((entry) => documented(name, entry.from, seen));
}

/** The one `export *` allowed: the root re-exporting /errors, so the list of errors is written once. */
const errorClasses = join(core, "src", "error-classes.ts");

/** Every exported error class declared in core's sources (not tests). */
function declaredErrorClasses(): { name: string; file: string }[] {
  const found: { name: string; file: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        const text = readFileSync(path, "utf8");
        for (const match of text.matchAll(/export\s+(?:abstract\s+)?class\s+(\w+Error)\b/g))
          found.push({ name: match[1]!, file: relative(core, path) });
      }
    }
  };
  walk(join(core, "src"));
  return found;
}

describe("@vf-rl/core's subpaths", () => {
  it("name every export explicitly (no export * but the root's of /errors), each documented where it is declared", () => {
    const problems: string[] = [];
    for (const { subpath, file } of entries) {
      for (const { name, from } of exportsOf(file)) {
        if (name === "*" && !(subpath === "." && from === errorClasses))
          problems.push(`${subpath}: export * from ${relative(core, from)}: name the exports`);
        else if (name === "*") continue;
        else if (!documented(name, from))
          problems.push(`${subpath}: ${name} has no JSDoc where it is declared`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("export every error class core declares from /errors, and so from the root", () => {
    const exported = new Set(exportsOf(errorClasses).map((entry) => entry.name));
    const missing = declaredErrorClasses().filter(({ name }) => !exported.has(name));
    expect(missing).toEqual([]);
    expect(entries.find((entry) => entry.subpath === "./errors")?.file).toBe(errorClasses);
  });

  it("load no package but zod from /errors (no model SDK), so the Hub and a command line import it cheaply", () => {
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, "utf8");
      // Static imports that load a module (`import type` is erased).
      for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;()]*?from\s+"([^"]+)"/gm)) {
        const specifier = match[2]!;
        if (match[1]) continue;
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
        else if (!specifier.startsWith("node:")) packages.add(specifier);
      }
    };
    visit(errorClasses);
    // zod: the results layout a foreign-run error names is read with it; it is small and core's own.
    expect([...packages]).toEqual(["zod"]);
    expect(seen.size).toBeGreaterThan(3);
  });

  it("other than the root (the authoring surface) and /errors, export exactly what code outside core imports", () => {
    const used = importedOutside();
    const problems: string[] = [];
    for (const { subpath, file } of entries.filter((entry) => ![".", "./errors"].includes(entry.subpath))) {
      const exported = new Set(exportsOf(file).map((entry) => entry.name));
      const imported = used.get(subpath) ?? new Map<string, string>();
      for (const name of exported) {
        if (!imported.has(name))
          problems.push(`${subpath}: ${name} is exported but nothing outside core imports it`);
      }
      for (const [name, where] of imported) {
        if (!exported.has(name))
          problems.push(`${subpath}: ${where} imports ${name}, which it does not export`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("find the imports they check, in every form the code uses", () => {
    const used = importedOutside();
    // A static import, a dynamic one, and one in a README's code block.
    expect(used.get("./results")?.get("readRun")).toBeDefined();
    expect(used.get("./loading")?.get("loadEnvironmentById")).toBeDefined();
    expect(used.get("./testing")?.get("evaluateScripted")).toBeDefined();
  });
});
