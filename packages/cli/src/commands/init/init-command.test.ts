import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { initEnvironment } from "./init-command.ts";

const parent = await mkdtemp(join(tmpdir(), "vf-init-"));
afterAll(() => rm(parent, { recursive: true, force: true }));

describe("vf init", () => {
  it("keeps a verifiers-style id with underscores and gives the npm package the hyphenated name", async () => {
    const { dir, files } = await initEnvironment({ name: "my_env", path: parent });
    expect(dir).toBe(join(parent, "my_env"));
    expect(files).toContain("package.json");
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    expect(pkg.name).toBe("my-env");
    expect(pkg.vf.id).toBe("my_env");
    expect(await readFile(join(dir, "README.md"), "utf8")).toMatch(/^# my_env/);
  });

  it("writes a package its own npm install && npm test can run: core, zod and vitest as dev dependencies, core and zod as required peers", async () => {
    const { dir } = await initEnvironment({ name: "peers", path: parent });
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    const version = JSON.parse(
      await readFile(new URL("../../../package.json", import.meta.url), "utf8"),
    ).version;
    expect(pkg.devDependencies).toEqual({
      "@vf-rl/core": `^${version}`,
      vitest: expect.any(String),
      zod: "^4",
    });
    expect(pkg.peerDependencies).toEqual({ "@vf-rl/core": `^${version}`, zod: "^4" });
    expect(pkg.peerDependenciesMeta).toBeUndefined();
    expect(pkg.files).toEqual(["src", "data", "README.md"]);
  });

  it("writes a taskset with --taskset: kind taskset, and @vf-rl/agents for its tests' working folders", async () => {
    const { dir, files } = await initEnvironment({ name: "my-tasks", path: parent, taskset: true });
    expect(files).toEqual([
      "README.md",
      "data/tasks.jsonl",
      "package.json",
      "src/index.test.ts",
      "src/index.ts",
      "vitest.config.ts",
    ]);
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    expect(pkg.vf).toMatchObject({ id: "my-tasks", kind: "taskset" });
    expect(Object.keys(pkg.devDependencies)).toEqual(["@vf-rl/agents", "@vf-rl/core", "vitest", "zod"]);
    expect(await readFile(join(dir, "src", "index.ts"), "utf8")).toContain('id: "my-tasks"');
  });

  it("refuses names npm or vf cannot take, saying what a name looks like", async () => {
    for (const name of ["My-Env", "my env", "-x", "my__env", "1env"]) {
      await expect(initEnvironment({ name, path: parent })).rejects.toThrow(
        /is not a valid environment name: use lower-case words joined by "-" or "_", e.g. my-env/,
      );
    }
  });
});
