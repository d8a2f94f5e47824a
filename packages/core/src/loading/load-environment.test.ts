import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvArgsError, EnvironmentNotFoundError, UserError } from "../errors.ts";
import { loadEnvironmentById } from "./load-environment.ts";

const here = dirname(fileURLToPath(import.meta.url));
const echoEnv = join(here, "test-packages", "echo-env");
const corePackage = resolve(here, "..", "..");
let project: string;

beforeAll(async () => {
  // A user's project: vf installed, one environment in ./environments, one installed package.
  project = await mkdtemp(join(tmpdir(), "vf-load-"));
  await mkdir(join(project, "node_modules", "@vf-rl"), { recursive: true });
  await symlink(corePackage, join(project, "node_modules", "@vf-rl", "core"));
  await symlink(
    resolve(corePackage, "..", "..", "node_modules", "zod"),
    join(project, "node_modules", "zod"),
  );
  await mkdir(join(project, "environments"));
  await symlink(echoEnv, join(project, "environments", "echo-env"));
  await symlink(join(here, "test-packages", "no-entry"), join(project, "node_modules", "no-entry"));
  await writeFile(join(project, "environments", "README.md"), "not a package\n");
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("loadEnvironmentById", () => {
  it("loads a package by path, checks its args, and names the id it was loaded by", async () => {
    const loaded = await loadEnvironmentById(echoEnv, { args: { words: ["a", "b", "c"] } });
    expect(loaded.id).toBe("echo-env");
    expect(loaded.packageJson.vf).toMatchObject({ numExamples: 2, rolloutsPerExample: 4 });
    const { inputs } = await loaded.env.inputs({ split: "eval" });
    expect(inputs.map((i) => i.answer)).toEqual(["a", "b", "c"]);
  });

  it("finds a bare id in ./environments of the working folder", async () => {
    const loaded = await loadEnvironmentById("echo-env", { cwd: project });
    expect(loaded.dir).toBe(join(project, "environments", "echo-env"));
  });

  it("looks a bare id up in envDir instead of ./environments when given", async () => {
    await mkdir(join(project, "my-envs"), { recursive: true });
    await symlink(echoEnv, join(project, "my-envs", "echo-env"));
    const loaded = await loadEnvironmentById("echo-env", { cwd: project, envDir: "my-envs" });
    expect(loaded.dir).toBe(join(project, "my-envs", "echo-env"));
    const elsewhere = loadEnvironmentById("echo-env", { cwd: project, envDir: "no-envs-here" });
    await expect(elsewhere).rejects.toThrow(
      /unknown environment "echo-env": known environments: (?!.*echo-env)/,
    );
  });

  it("names the field and what was expected when env args fail the schema", async () => {
    const attempt = loadEnvironmentById(echoEnv, { args: { words: [], colour: "red" } });
    await expect(attempt).rejects.toBeInstanceOf(EnvArgsError);
    await expect(attempt).rejects.toThrow(
      /bad env args for "echo-env": words: .*; \(args\): Unrecognized key.*colour/,
    );
  });

  it("lists the known environments when an id is unknown", async () => {
    const attempt = loadEnvironmentById("no-such-env", { cwd: project });
    await expect(attempt).rejects.toBeInstanceOf(EnvironmentNotFoundError);
    await expect(attempt).rejects.toThrow(
      /unknown environment "no-such-env": known environments: .*echo-env/,
    );
  });

  it("keeps the owner in the id of an installed Hub package", async () => {
    await mkdir(join(project, "node_modules", "@someone"), { recursive: true });
    await symlink(echoEnv, join(project, "node_modules", "@someone", "echo-env"));
    const loaded = await loadEnvironmentById("someone/echo-env@1.2.3", { cwd: project });
    expect(loaded.id).toBe("someone/echo-env");
  });

  it("says to install a Hub id that is not installed, marking it so a host can say how", async () => {
    const missing = loadEnvironmentById("someone/thing@1.0.0", { cwd: project });
    await expect(missing).rejects.toThrow(/"someone\/thing@1.0.0": .*install it from its Hub$/);
    await expect(missing).rejects.toMatchObject({ envId: "someone/thing@1.0.0", notInstalled: true });
  });

  it("refuses an environment that is not an Environment of this @vf-rl/core, naming its class", async () => {
    const attempt = loadEnvironmentById(join(here, "test-packages", "not-an-env"));
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    await expect(attempt).rejects.toThrow(
      /returned an object of class SingleTurnEnv, not an Environment of the @vf-rl\/core vf runs with/,
    );
  });

  it("explains a folder that is not a package, and a package without loadEnvironment", async () => {
    await expect(loadEnvironmentById("./environments", { cwd: project })).rejects.toThrow(
      /has no package.json/,
    );
    await expect(loadEnvironmentById("no-entry", { cwd: project })).rejects.toThrow(UserError);
    await expect(loadEnvironmentById("no-entry", { cwd: project })).rejects.toThrow(
      /does not export loadEnvironment\(args\)/,
    );
  });
});
