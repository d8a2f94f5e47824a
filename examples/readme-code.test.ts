// The TypeScript shown in the READMEs is code that is type-checked and run: every ```ts block of the
// root README and of core's (the authoring guide) is an excerpt of one file under examples/, which
// `npm run check` type-checks and whose tests run it. An example edited in one place and not the
// other fails here.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "..");
const READMES = ["README.md", "packages/core/README.md"];

/** A line as it is compared: indentation and a leading `export` do not matter. */
const normalise = (line: string) => line.trim().replace(/^export\s+/, "");

function exampleFiles(dir = import.meta.dirname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return exampleFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The ```ts blocks of a markdown file, each split into chunks at blank lines. */
function codeBlocks(markdown: string): string[][][] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) =>
    match[1]!
      .split(/\n\s*\n/)
      .map((chunk) => chunk.split("\n").map(normalise).filter(Boolean))
      .filter((chunk) => chunk.length > 0),
  );
}

function contains(lines: string[], chunk: string[]): boolean {
  for (let i = 0; i + chunk.length <= lines.length; i++) {
    if (chunk.every((line, j) => lines[i + j] === line)) return true;
  }
  return false;
}

const files = exampleFiles().map((path) => ({
  path,
  lines: readFileSync(path, "utf8").split("\n").map(normalise).filter(Boolean),
}));

describe.each(READMES)("%s", (readme) => {
  const blocks = codeBlocks(readFileSync(join(repo, readme), "utf8"));

  it("has TypeScript examples", () => {
    expect(blocks.length).toBeGreaterThan(1);
  });

  it("shows only code that is in a file under examples/", () => {
    const missing = blocks
      .filter((chunks) => !files.some((file) => chunks.every((chunk) => contains(file.lines, chunk))))
      .map((chunks) => chunks[0]!.slice(0, 2).join(" / "));
    expect(missing, `blocks of ${readme} in no file of ${relative(repo, import.meta.dirname)}/`).toEqual([]);
  });
});

describe("each bundled environment's README", () => {
  const environments = readdirSync(join(repo, "environments"));

  // A taskset's entry exports loadTaskset instead (its vf field says "kind": "taskset").
  it.each(environments)("%s names its npm package and the loadEnvironment it exports", async (dir) => {
    const { name, vf } = JSON.parse(readFileSync(join(repo, "environments", dir, "package.json"), "utf8"));
    const loader = vf.kind === "taskset" ? "loadTaskset" : "loadEnvironment";
    const readme = readFileSync(join(repo, "environments", dir, "README.md"), "utf8");
    expect(readme).toContain(`\`${name}\` on npm`);
    expect(readme).toContain(`import { ${loader} } from "${name}"`);
    const entry = (await import(name)) as Record<string, unknown>;
    expect(typeof entry[loader]).toBe("function");
  });
});
