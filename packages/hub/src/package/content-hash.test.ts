import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectPackageFiles, readUnpackedPackage } from "./collect-files.ts";
import { contentHash, sortFiles } from "./content-hash.ts";

const file = (path: string, text: string) => ({ path, data: Buffer.from(text, "utf8") });

describe("the content hash (docs/content-hash.md)", () => {
  it("matches the spec's framing, byte for byte (a change of spec must change this digest)", () => {
    const files = [file("package.json", "{}"), file("README.md", "hi\n")];
    // Computed independently (Python hashlib over the same framing); pinned so the spec cannot drift.
    expect(contentHash(files)).toBe("a847c91c6bd3174000ae24acbb9aab59ab93c142cdebee272f5fc287f1974bee");
    const stream = Buffer.concat([
      Buffer.from("vf-content-hash/1\n"),
      Buffer.from("README.md\u00003\u0000hi\n"),
      Buffer.from("package.json\u00002\u0000{}"),
    ]);
    expect(contentHash(files)).toBe(createHash("sha256").update(stream).digest("hex"));
  });

  it("orders files by the bytes of their paths, whatever order they come in", () => {
    const files = [file("a/b", "1"), file("a-b", "2"), file("B", "3"), file("a", "4")];
    expect(sortFiles(files).map((f) => f.path)).toEqual(["B", "a", "a-b", "a/b"]);
    expect(contentHash(files)).toBe(contentHash([...files].reverse()));
  });

  it("cannot be fooled by moving bytes between a path and its content", () => {
    expect(contentHash([file("ab", "c")])).not.toBe(contentHash([file("a", "bc")]));
    expect(contentHash([file("a", "1"), file("b", "")])).not.toBe(contentHash([file("a", "1b")]));
  });
});

describe("reading a package folder", () => {
  const make = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), "vf-collect-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it("leaves out what npm pack would, and dot-files, node_modules and root outputs/", async () => {
    const dir = make({
      "package.json": "{}",
      ".env": "SECRET=1",
      ".git/config": "",
      "src/.cache/x": "",
      "node_modules/a/index.js": "",
      "src/node_modules/b.js": "",
      "outputs/evals/run/results.jsonl": "",
      "data/outputs/keep.json": "[]",
      "build/bundle.js": "",
      "notes.log": "",
      "package-lock.json": "{}",
      ".gitignore": "build/\n*.log\n",
      "src/index.js": "",
    });
    expect((await collectPackageFiles(dir)).map((f) => f.path)).toEqual([
      "data/outputs/keep.json",
      "package.json",
      "src/index.js",
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves a symbolic link out of a source folder, as npm pack does; an unpacked package with one is refused", async () => {
    const dir = make({ "package.json": "{}" });
    symlinkSync("/etc", join(dir, "etc"));
    expect((await collectPackageFiles(dir)).map((f) => f.path)).toEqual(["package.json"]);
    expect(() => readUnpackedPackage(dir)).toThrow(/^etc is a symbolic link/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads an unpacked package as it is: package.json files and a lockfile do not filter it", () => {
    const dir = make({
      "package.json": JSON.stringify({ name: "x", version: "1.0.0", files: ["index.js"] }),
      "index.js": "",
      "test/x.test.js": "",
      "package-lock.json": "{}",
      "node_modules/dep/index.js": "",
    });
    expect(readUnpackedPackage(dir).map((f) => f.path)).toEqual([
      "index.js",
      "package-lock.json",
      "package.json",
      "test/x.test.js",
    ]);
    rmSync(dir, { recursive: true, force: true });
  });
});
