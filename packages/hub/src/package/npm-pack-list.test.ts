/**
 * `npmPackList` against the real npm: in each folder it lists exactly what `npm pack --dry-run --json`
 * lists there: package.json `files`, .npmignore at any depth, .gitignore without one, npm's
 * always-included and always-excluded files, and a workspace under a root whose .gitignore applies.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { npmPackList } from "./npm-pack-list.ts";

const root = mkdtempSync(join(tmpdir(), "vf-packlist-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** What `npm pack --dry-run --json` run in `dir` would pack, sorted. */
function npmPackDryRun(dir: string): string[] {
  const out = execFileSync(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts", "--no-update-notifier"],
    {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const [packed] = JSON.parse(out) as { files: { path: string }[] }[];
  return packed!.files.map((f) => f.path).sort();
}

const manifest = (fields: Record<string, unknown>) =>
  JSON.stringify({ name: "my-env", version: "1.0.0", type: "module", vf: { id: "my-env" }, ...fields });

describe("npmPackList", () => {
  it("follows package.json files, and npm's always-included and always-excluded files", async () => {
    const dir = write(join(root, "with-files"), {
      "package.json": manifest({
        main: "dist/index.js",
        bin: { "my-env": "bin/cli.js" },
        files: ["dist", "data/*.jsonl"],
      }),
      "README.md": "# my-env\n",
      LICENSE: "MIT\n",
      "CHANGELOG.md": "1.0.0\n",
      "dist/index.js": "export {};\n",
      "dist/index.test.js": "",
      "dist/.hidden": "",
      "bin/cli.js": "",
      "data/train.jsonl": "{}\n",
      "data/notes.txt": "",
      "src/index.ts": "",
      "src/index.test.ts": "",
      "vitest.config.ts": "",
      "package-lock.json": "{}",
      "npm-shrinkwrap.json": "{}",
      ".npmrc": "",
      "dist/index.js.orig": "",
    });
    const listed = await npmPackList(dir);
    expect(listed).toEqual(npmPackDryRun(dir));
    expect(listed).toContain("bin/cli.js");
    expect(listed).not.toContain("package-lock.json");
    expect(listed).not.toContain("src/index.test.ts");
  });

  it("follows .npmignore at any depth, and .gitignore where there is none", async () => {
    const npmignored = write(join(root, "npmignore"), {
      "package.json": manifest({}),
      ".npmignore": "*.test.ts\nfixtures/\n",
      ".gitignore": "index.ts\n",
      "index.ts": "",
      "index.test.ts": "",
      "fixtures/a.json": "",
      "data/.npmignore": "big.bin\n",
      "data/big.bin": "",
      "data/small.json": "",
    });
    expect(await npmPackList(npmignored)).toEqual(npmPackDryRun(npmignored));
    const gitignored = write(join(root, "gitignore"), {
      "package.json": manifest({}),
      ".gitignore": "build/\n*.log\n",
      "index.ts": "",
      "build/out.js": "",
      "debug.log": "",
    });
    expect(await npmPackList(gitignored)).toEqual(npmPackDryRun(gitignored));
  });

  it("applies the ignore files above a workspace up to its root, as npm pack run in it does", async () => {
    const project = write(join(root, "project"), {
      "package.json": JSON.stringify({ name: "project", private: true, workspaces: ["environments/*"] }),
      ".gitignore": "node_modules/\n__pycache__/\n*.log\n",
      "environments/my-env/package.json": manifest({}),
      "environments/my-env/index.ts": "",
      "environments/my-env/run.log": "",
      "environments/my-env/py/__pycache__/x.pyc": "",
      "environments/my-env/py/tool.py": "",
    });
    const member = join(project, "environments", "my-env");
    const listed = await npmPackList(member);
    expect(listed).toEqual(npmPackDryRun(member));
    expect(listed).toEqual(["index.ts", "package.json", "py/tool.py"]);
  });
});
