// vf init inside a user's npm project: the new folder joins the project's workspaces, so the
// project's one npm install serves it (published-workflow.test.ts runs that install for real).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runVf } from "@vf-rl/test-support";
import { afterAll, describe, expect, it } from "vitest";
import { addWorkspace, enclosingProject, workspacePattern } from "./project-workspaces.ts";

const root = mkdtempSync(join(tmpdir(), "vf-init-project-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder holding package.json with `text`. */
function project(name: string, text: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), text);
  return dir;
}

describe("vf init in an npm project", () => {
  it("adds environments/* to the project's workspaces and says to run npm install there", async () => {
    const dir = project("plain", `${JSON.stringify({ name: "mine", version: "1.0.0" }, null, 2)}\n`);
    const init = await runVf(["init", "my-env", "--no-install"], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain('added "environments/*" to the workspaces of package.json');
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toEqual({
      name: "mine",
      version: "1.0.0",
      workspaces: ["environments/*"],
    });
    expect(init.stdout).toMatch(/\nnext:\n {2}npm install\n {2}(npx )?vf eval \.\/environments\/my-env\n/);
    expect(init.stdout).toContain("  cd environments/my-env && npm test\n");
    // A second environment finds the pattern there and leaves package.json alone.
    const before = readFileSync(join(dir, "package.json"), "utf8");
    expect((await runVf(["init", "other", "--no-install"], { cwd: dir })).stderr).not.toContain("added");
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(before);
  });

  it("keeps the manifest's indentation, its other keys and the { packages } form", () => {
    const dir = project("tabs", '{\n\t"name": "t",\n\t"workspaces": { "packages": ["libs/*"] }\n}\n');
    addWorkspace(dir, "environments/*");
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(
      '{\n\t"name": "t",\n\t"workspaces": {\n\t\t"packages": [\n\t\t\t"libs/*",\n\t\t\t"environments/*"\n\t\t]\n\t}\n}\n',
    );
  });

  it("names the pattern from the new folder's parent, and the nearest package.json as the project", () => {
    const dir = project("nested", "{}");
    expect(workspacePattern(dir, join(dir, "environments", "x"))).toBe("environments/*");
    expect(workspacePattern(dir, join(dir, "x"))).toBe("x");
    expect(enclosingProject(join(dir, "environments", "x"))).toBe(dir);
    expect(enclosingProject(join(root, "no-project", "environments", "x"))).toBeUndefined();
  });

  it("refuses a package.json that is not JSON, saying which", () => {
    const dir = project("broken", "{ name: ");
    expect(() => addWorkspace(dir, "environments/*")).toThrow(/package\.json is not valid JSON .*: fix it/);
  });
});
