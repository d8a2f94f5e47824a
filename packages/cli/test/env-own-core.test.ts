// An environment that brings its own copy of @vf-rl/core (its author ran npm install in its folder,
// or a dependency of it did) throws error classes the host's `instanceof` does not know. The host
// must still report them as what they are, a user's mistake in one line, never as "an internal
// error of vf".
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type TempProject, tempProject } from "./temp-project.ts";

const repo = resolve(import.meta.dirname, "..", "..", "..");
let project: TempProject;

beforeAll(async () => {
  project = await tempProject();
  const env = join(project.dir, "environments", "own-core");
  mkdirSync(join(env, "src"), { recursive: true });
  writeFileSync(
    join(env, "package.json"),
    JSON.stringify({ name: "own-core", type: "module", exports: "./src/index.ts", vf: { id: "own-core" } }),
  );
  writeFileSync(
    join(env, "src", "index.ts"),
    [
      'import { AuthoringError, defineEnvironment } from "@vf-rl/core";',
      'import { z } from "zod";',
      "export const loadEnvironment = defineEnvironment({",
      "  args: z.object({}).strict(),",
      "  load: () => {",
      '    const core = import.meta.resolve("@vf-rl/core");',
      '    throw new AuthoringError("no rows (thrown by the core at " + core + "): add data/rows.jsonl");',
      "  },",
      "});",
    ].join("\n"),
  );
  // A second copy of core (its own files, so its own classes), finding its dependencies in the repo's.
  const copy = join(env, "node_modules", "@vf-rl", "core");
  mkdirSync(copy, { recursive: true });
  cpSync(join(repo, "packages", "core", "package.json"), join(copy, "package.json"));
  cpSync(join(repo, "packages", "core", "src"), join(copy, "src"), {
    recursive: true,
    filter: (path) => !/\.test\.ts$|\/fixtures(\/|$)|\/test-packages(\/|$)/.test(path),
  });
  symlinkSync(join(repo, "node_modules"), join(copy, "node_modules"));
}, 60_000);
afterAll(() => project.remove());

it("reports a UserError of the environment's own @vf-rl/core as one line, not an internal error", async () => {
  // vf from its sources: a built vf (an install's, and the suite's VF_FROM_BUILD) hands an
  // environment's own files the host's core instead (import-entry.ts), so no second copy would run.
  const result = await runVf(["eval", "own-core", "-n", "1", "-r", "1"], {
    cwd: project.dir,
    env: { VF_FROM_BUILD: "0" },
  });
  expect(result.code).toBe(1);
  // The error did come from the environment's copy, not from the host's core.
  expect(result.stderr).toContain("/environments/own-core/node_modules/@vf-rl/core/");
  expect(result.stderr).toMatch(/^error: no rows \(thrown by the core at .*\): add data\/rows.jsonl\n$/);
  expect(result.stderr).not.toMatch(/internal error/);
}, 120_000);
