// vf's own environments are installed one by one (the CLI brings reverse-text): the list findEnvironment
// names them from is this repository's environments/ folder, and a missing one says how to install it.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvironmentNotFoundError, EnvironmentNotInstalledError } from "../errors.ts";
import { VF_ENVIRONMENTS } from "./find-environment.ts";

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
