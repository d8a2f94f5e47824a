// The tarball check the published-packages test runs on every package, tried on a package made
// for it: each kind of fault is reported, and what a published package may hold passes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { bareImports, inspectPack } from "./packed-files.ts";

const dir = mkdtempSync(join(tmpdir(), "vf-packed-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
}

it("names every bare import of a module, static, re-exported, dynamic or type-only", async () => {
  const source = [
    'import { a } from "alpha";',
    'import {\n  b,\n  c,\n} from "@scope/beta/sub";',
    'export { d } from "gamma";',
    'import "delta";',
    'const e = await import("epsilon");',
    'import type { F } from "zeta";',
    'import { g } from "./local.js";',
    'import { readFile } from "node:fs/promises";',
    'import { join } from "path";',
    'const text = "not an import from \\"eta\\"";',
  ].join("\n");
  expect(await bareImports(source)).toEqual([
    "alpha",
    "@scope/beta/sub",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
  ]);
});

it("reports test-only files and imports of undeclared packages, and passes the rest", async () => {
  write(
    "package.json",
    JSON.stringify({
      name: "@vf-test/packed",
      version: "1.0.0",
      files: ["dist", "templates"],
      dependencies: { zod: "^4" },
      peerDependencies: { "@vf-rl/core": "^0.1.0" },
      devDependencies: { vitest: "^4" },
    }),
  );
  write(
    "dist/index.js",
    'import { z } from "zod";\nimport { Rubric } from "@vf-rl/core";\nimport "@vf-test/packed/x";\n',
  );
  write("dist/index.d.ts", 'import type { z } from "zod";\nexport declare const x: z.ZodString;\n');
  write("dist/db/store.contract.js", 'import { describe } from "vitest";\n');
  write("dist/browser.js", 'export const browser = () => import("playwright-core");\n');
  write("dist/rows.fixture.jsonl", "{}\n");
  write("dist/server/test-support.js", "export const port = 0;\n");
  write("templates/env/src/index.test.ts.tpl", "// the scaffold's own test\n");

  const pack = await inspectPack(dir, process.env);
  expect(pack.name).toBe("@vf-test/packed");
  expect(pack.size).toBeGreaterThan(0);
  expect(pack.problems.sort()).toEqual([
    "dist/browser.js: imports playwright-core, which is not a dependency or peer of @vf-test/packed",
    "dist/db/store.contract.js: a test-only file",
    "dist/db/store.contract.js: imports vitest, which is not a dependency or peer of @vf-test/packed",
    "dist/rows.fixture.jsonl: a test-only file",
    "dist/server/test-support.js: a test-only file",
  ]);
}, 60_000);
