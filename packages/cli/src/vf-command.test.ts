import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { vfCommand } from "./vf-command.ts";

const root = mkdtempSync(join(tmpdir(), "vf-command-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder holding an executable `vf` (or a plain file, when `executable` is false). */
function binFolder(name: string, executable = true): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "vf"), "#!/bin/sh\n");
  chmodSync(join(dir, "vf"), executable ? 0o755 : 0o644);
  return dir;
}

describe.skipIf(process.platform === "win32")("vfCommand", () => {
  it("says npx vf when no vf is on PATH, as in a project that installed vf with npm install -D", () => {
    expect(vfCommand("eval ./environments/my-env", { path: join(root, "empty") })).toBe(
      "npx vf eval ./environments/my-env",
    );
  });

  it("says vf when a vf is on PATH, as after a global install", () => {
    const path = [join(root, "empty"), binFolder("global-bin")].join(delimiter);
    expect(vfCommand("env install ada/x@0.1.0", { path })).toBe("vf env install ada/x@0.1.0");
  });

  it("does not count the project's node_modules/.bin, which npx puts on PATH only for the command it runs", () => {
    const path = binFolder(join("project", "node_modules", ".bin"));
    expect(vfCommand("eval x", { path })).toBe("npx vf eval x");
    expect(vfCommand("eval x", { path: `${path}/` })).toBe("npx vf eval x");
  });

  it("does not count a vf that is not executable", () => {
    expect(vfCommand("eval x", { path: binFolder("not-executable", false) })).toBe("npx vf eval x");
  });
});
