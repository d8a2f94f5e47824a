// vf's own environments are installed one by one (the CLI brings reverse-text): the list findEnvironment
// names them from is this repository's environments/ folder, and a missing one says how to install it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvironmentNotFoundError, EnvironmentNotInstalledError } from "../errors.ts";
import { findEnvironment, findPackagePath, packageNameOf, VF_ENVIRONMENTS } from "./find-environment.ts";

const environments = resolve(import.meta.dirname, "..", "..", "..", "..", "environments");

describe("vf's own environments", () => {
  it("are the packages of environments/, each @vf-env/<id>", () => {
    const packages = readdirSync(environments).map(
      (dir) => JSON.parse(readFileSync(join(environments, dir, "package.json"), "utf8")) as { name: string },
    );
    expect(packages.map((p) => p.name).sort()).toEqual(VF_ENVIRONMENTS.map((id) => `@vf-env/${id}`));
  });

  it("one not installed is named with the line that installs it", () => {
    const error = new EnvironmentNotInstalledError("gsm8k", "@vf-env/gsm8k");
    expect(error).toBeInstanceOf(EnvironmentNotFoundError);
    expect(error).toMatchObject({ envId: "gsm8k", packageName: "@vf-env/gsm8k", notInstalled: false });
    expect(error.message).toBe("environment gsm8k is not installed: npm install -D @vf-env/gsm8k");
  });
});

describe("a Hub id with a version", () => {
  it("finds the installed package when the version is the one installed, latest or a hash, and refuses another label", () => {
    const project = mkdtempSync(join(tmpdir(), "vf-find-"));
    try {
      const dir = join(project, "node_modules", "@ada", "bugfix");
      mkdirSync(dir, { recursive: true });
      const pkg = { name: "@ada/bugfix", version: "0.1.0", vf: { id: "bugfix", kind: "taskset" } };
      writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
      for (const id of ["ada/bugfix", "ada/bugfix@0.1.0", "ada/bugfix@latest", "ada/bugfix@3f9a2c1b"]) {
        expect(findEnvironment(id, { cwd: project })).toMatchObject({ dir, hubId: "ada/bugfix" });
      }
      expect(() => findEnvironment("ada/bugfix@0.2.0", { cwd: project })).toThrow(
        expect.objectContaining({
          envId: "ada/bugfix@0.2.0",
          notInstalled: true,
          message: `unknown environment "ada/bugfix@0.2.0": ada/bugfix@0.1.0 is installed here (${dir}), not 0.2.0`,
        }),
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});

describe("a path inside an installed package", () => {
  it("is found in the project's node_modules when it is not a path here, scoped or not", () => {
    const project = mkdtempSync(join(tmpdir(), "vf-find-"));
    try {
      const scoped = join(project, "node_modules", "@vf-env", "tasks", "warm-start");
      const plain = join(project, "node_modules", "my-env", "ckpt");
      mkdirSync(scoped, { recursive: true });
      mkdirSync(plain, { recursive: true });
      mkdirSync(join(project, "outputs", "run"), { recursive: true });
      const cwd = join(project, "sub"); // looked up from the working folder upward
      mkdirSync(cwd);
      expect(findPackagePath("@vf-env/tasks/warm-start", { cwd })).toBe(scoped);
      expect(findPackagePath("my-env/ckpt", { cwd })).toBe(plain);
      expect(findPackagePath("../outputs/run", { cwd })).toBe("../outputs/run"); // a path that exists, as given
      expect(findPackagePath("@vf-env/tasks/cold-start", { cwd })).toBeUndefined();
      expect(findPackagePath("./my-env/ckpt", { cwd })).toBeUndefined(); // a relative path, never a package
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("names its package, when it starts with one", () => {
    expect(packageNameOf("@vf-env/bash-arithmetic/warm-start")).toBe("@vf-env/bash-arithmetic");
    expect(packageNameOf("my-env/ckpt/step_3")).toBe("my-env");
    expect(packageNameOf("./my-env/ckpt")).toBeUndefined();
    expect(packageNameOf("/abs/path")).toBeUndefined();
    expect(packageNameOf("@vf-env/bash-arithmetic")).toBeUndefined(); // the package itself, nothing inside
  });
});
