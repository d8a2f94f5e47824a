// `vf env push` refuses an environment that does not load, with one line naming the error, and sends
// nothing; one that loads (or that loads far enough to ask for its arguments) is pushed. Drives the
// real vf binary against a real Hub on loopback, in a throwaway project that links vf's packages.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HubClient } from "@vf-rl/hub/client";
import type { VfResult } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HubSession, startHubSession } from "./hub-session.ts";
import type { TempProject } from "./temp-project.ts";

// Each vf run starts a process (about 1.5 s, more on a loaded machine).
vi.setConfig({ testTimeout: 120_000 });

let session: HubSession;
let project: TempProject;
let admin: HubClient;

beforeAll(async () => {
  session = await startHubSession();
  ({ project, admin } = session);
});
afterAll(() => session.close());

const ECHO_ENV = `import { Dataset, defineEnvironment, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

export const loadEnvironment = defineEnvironment({
  args: ARGS,
  load: ({ words }) =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(words.map((word) => ({ question: word, answer: word }))),
      rubric: new Rubric(),
    }),
});
`;
const DEFAULT_ARGS = 'z.object({ words: z.array(z.string()).default(["hi"]) }).strict()';
const REQUIRED_ARGS = "z.object({ words: z.array(z.string()).min(1) }).strict()";

/** Writes an environment package `name` whose src/index.ts is `source`; returns its folder. */
function writeEnv(name: string, source: string): string {
  const dir = join(project.dir, "environments", name);
  mkdirSync(join(dir, "src"), { recursive: true });
  const pkg = {
    name,
    version: "0.1.0",
    type: "module",
    exports: { ".": "./src/index.ts" },
    vf: { id: name },
    peerDependencies: { "@vf-rl/core": "*" },
    peerDependenciesMeta: { "@vf-rl/core": { optional: true } },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(dir, "src", "index.ts"), source);
  return dir;
}

const vf = (args: string[]) => session.vf(args);

/** The one line a failed command prints: an error with what to do, and no stack. */
function expectOneErrorLine(result: VfResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
}

describe("vf env push checks that the environment loads", () => {
  it("refuses a package that does not parse, in one line naming the error, and pushes nothing", async () => {
    const dir = writeEnv("broken", `${ECHO_ENV.replace("ARGS", DEFAULT_ARGS)}\nexport const oops = ;\n`);
    const [pushed, dry] = await Promise.all([
      vf(["env", "push", dir]),
      vf(["env", "push", dir, "--dry-run"]),
    ]);
    for (const result of [pushed, dry]) {
      expectOneErrorLine(result, /cannot push .*broken: it does not load \(.*index\.ts.*\).*--no-load-check/);
    }
    await expect(admin.envInfo("admin", "broken")).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses a package whose entry exports no loadEnvironment", async () => {
    const dir = writeEnv("no-loader", "export const something = 1;\n");
    expectOneErrorLine(await vf(["env", "push", dir]), /does not load \(.*does not export loadEnvironment/);
    await expect(admin.envInfo("admin", "no-loader")).rejects.toMatchObject({ code: "not_found" });
  });

  it("pushes a package that loads, or that asks for arguments it was not given", async () => {
    const fine = writeEnv("fine", ECHO_ENV.replace("ARGS", DEFAULT_ARGS));
    const needsArgs = writeEnv("needs-args", ECHO_ENV.replace("ARGS", REQUIRED_ARGS));
    const results = await Promise.all([vf(["env", "push", fine]), vf(["env", "push", needsArgs])]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(results[0]!.stdout).toContain("pushed admin/fine@0.1.0");
    expect(results[1]!.stdout).toContain("pushed admin/needs-args@0.1.0");
  });

  it("pushes a package that does not load when told to skip the check", async () => {
    const dir = writeEnv("unchecked", "export const oops = ;\n");
    const result = await vf(["env", "push", dir, "--no-load-check"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("pushed admin/unchecked@0.1.0");
  });
});
