// `vf env push` sends exactly the files `npm pack` would pack: package.json `files`, .npmignore, and
// npm's always-included (README, LICENSE) and always-excluded (package-lock.json) files, so tests,
// lockfiles and tool configs stay home. Drives the real vf binary against a real Hub on loopback and
// compares with the real `npm pack --dry-run --json` run in the same folder.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { unpackTarball } from "@vf-rl/hub";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HubSession, startHubSession } from "./hub-session.ts";

// Each vf run starts a process (about 1.5 s, more on a loaded machine).
vi.setConfig({ testTimeout: 120_000 });

let session: HubSession;
beforeAll(async () => {
  session = await startHubSession();
});
afterAll(() => session.close());

const ENV_SOURCE = `import { Dataset, defineEnvironment, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

export const loadEnvironment = defineEnvironment({
  args: z.object({}).strict(),
  load: () =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows([{ question: "hi", answer: "hi" }]),
      rubric: new Rubric(),
    }),
});
`;

/** An environment package as an author keeps it: sources, data, tests, a lockfile, tool configs. */
function writePackage(dir: string): void {
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify(
      {
        name: "packed",
        version: "1.0.0",
        type: "module",
        exports: { ".": "./src/index.ts" },
        files: ["src", "data/*.jsonl"],
        vf: { id: "packed" },
        peerDependencies: { "@vf-rl/core": "*" },
        peerDependenciesMeta: { "@vf-rl/core": { optional: true } },
      },
      null,
      2,
    )}\n`,
    "README.md": "# packed\n",
    LICENSE: "MIT\n",
    "src/index.ts": ENV_SOURCE,
    "src/prompts/system.md": "Answer briefly.\n",
    "src/index.test.ts": "// a test kept beside the source\n",
    "src/.npmignore": "*.test.ts\n",
    "data/rows.jsonl": '{"question": "hi"}\n',
    "data/raw.csv": "question\nhi\n",
    "test/index.test.ts": "// the package's tests\n",
    "vitest.config.ts": "export default {};\n",
    "tsconfig.json": "{}\n",
    "package-lock.json": '{"lockfileVersion": 3}\n',
    "notes/todo.md": "- more rows\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** The paths `npm pack --dry-run --json` lists in `dir`, sorted. */
function npmPackPaths(dir: string): string[] {
  const out = execFileSync(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts", "--no-update-notifier"],
    {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
}

describe("vf env push packs what npm pack would", () => {
  it("sends only package.json's files and npm's always-included files: no tests, lockfile or configs", async () => {
    const dir = join(session.project.dir, "environments", "packed");
    writePackage(dir);
    const npmPaths = npmPackPaths(dir);
    expect(npmPaths).toEqual([
      "LICENSE",
      "README.md",
      "data/rows.jsonl",
      "package.json",
      "src/index.ts",
      "src/prompts/system.md",
    ]);

    const dry = await session.vf(["env", "push", dir, "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { files: { path: string }[] };
    expect(planned.files.map((f) => f.path).sort()).toEqual(npmPaths);

    const pushed = await session.vf(["env", "push", dir]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain("pushed admin/packed@1.0.0");
    const tarball = await session.admin.downloadTarball("admin", "packed", "1.0.0");
    expect(
      unpackTarball(tarball)
        .map((f) => f.path)
        .sort(),
    ).toEqual(npmPaths);

    // The lockfile, a test or a config changing is no new content: nothing to push.
    writeFileSync(join(dir, "package-lock.json"), '{"lockfileVersion": 3, "packages": {}}\n');
    writeFileSync(join(dir, "test", "more.test.ts"), "// another test\n");
    const again = await session.vf(["env", "push", dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("already at version 1.0.0");
  });
});
