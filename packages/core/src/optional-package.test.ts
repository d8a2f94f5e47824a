// importOptional against Node's own module resolution: a folder of packages in node_modules, one
// that imports a package nobody installed, one whose own dependency is missing, one that is there.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { MissingPackageError, UserError } from "./errors.ts";
import { importOptional } from "./optional-package.ts";

const root = mkdtempSync(join(tmpdir(), "vf-optional-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes package `name` into the folder's node_modules with `index.js` as its entry. */
function writePackage(name: string, index: string): string {
  const dir = join(root, "node_modules", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, type: "module", main: "index.js" }));
  writeFileSync(join(dir, "index.js"), index);
  return join(dir, "index.js");
}

// The host: its dynamic imports resolve from its own folder, as a package of vf's do from theirs.
const host = writePackage(
  "host",
  `export const load = (name) => import(name);
`,
);
writePackage("present", "export const answer = 42;\n");
writePackage("broken", 'import "absent-dependency";\nexport const answer = 1;\n');

/** `load` of the host: `import(name)` made from inside node_modules/host. */
async function loadFromHost(name: string): Promise<unknown> {
  const { load } = (await import(pathToFileURL(host).href)) as { load: (name: string) => Promise<unknown> };
  return load(name);
}

describe("importOptional", () => {
  it("returns the package when it is installed", async () => {
    const present = await importOptional({
      name: "present",
      neededBy: "the test",
      load: () => loadFromHost("present") as Promise<{ answer: number }>,
    });
    expect(present.answer).toBe(42);
  });

  it("names what needs a missing package and the line that installs it", async () => {
    const error = await importOptional({
      name: "@electric-sql/not-installed",
      neededBy: "the Hub server",
      load: () => loadFromHost("@electric-sql/not-installed"),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPackageError);
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({
      message: "the Hub server needs @electric-sql/not-installed: npm install -D @electric-sql/not-installed",
      packageName: "@electric-sql/not-installed",
      neededBy: "the Hub server",
    });
    expect((error as Error).cause).toMatchObject({ code: "ERR_MODULE_NOT_FOUND" });
  });

  it("lets a failure inside an installed package through: a dependency of its own missing", async () => {
    const error = await importOptional({
      name: "broken",
      neededBy: "the test",
      load: () => loadFromHost("broken"),
    }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(MissingPackageError);
    expect(error).toMatchObject({ code: "ERR_MODULE_NOT_FOUND" });
    expect((error as Error).message).toContain("'absent-dependency'");
  });

  it("lets any other failure of loading through (a native addon that does not load)", async () => {
    const failure = new Error("the native addon did not load");
    await expect(
      importOptional({ name: "zeromq", neededBy: "the env server", load: () => Promise.reject(failure) }),
    ).rejects.toBe(failure);
  });
});
