import { mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OutputFolderError } from "../errors.ts";
import { makeFolder } from "./make-folder.ts";

describe("makeFolder", () => {
  it("creates a folder with its missing parents, and accepts one that exists", async () => {
    const root = await mkdtemp(join(tmpdir(), "vf-make-folder-"));
    const deep = join(root, "a", "b", "c");
    await makeFolder(deep);
    await makeFolder(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
  });

  it("says which part of the path is a file", async () => {
    const root = await mkdtemp(join(tmpdir(), "vf-make-folder-"));
    await writeFile(join(root, "notes"), "");
    const attempt = makeFolder(join(root, "notes", "evals"));
    await expect(attempt).rejects.toThrow(OutputFolderError);
    await expect(attempt).rejects.toThrow(`${join(root, "notes")} is a file, not a folder`);
  });

  // Node 20's recursive mkdir never returns here (it retries /proc/x forever).
  it("refuses a folder the file system cannot hold, promptly", async () => {
    await expect(makeFolder("/proc/vf-test/evals")).rejects.toThrow(
      "cannot save into /proc/vf-test/evals: cannot create /proc/vf-test",
    );
  });
});
