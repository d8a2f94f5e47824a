import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OutputFolderError } from "@vf-rl/core/errors";
import {
  listRuns,
  ResumeSettingsMismatchError,
  RunFolderNotEmptyError,
  RunLockedError,
} from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { flagHint } from "./flag-hints.ts";

describe("flagHint", () => {
  it("names the vf eval and vf view flags behind core's run-folder errors", async () => {
    const missing = join(await mkdtemp(join(tmpdir(), "vf-hint-")), "nothing-here");
    const notFound = await listRuns(missing).catch((e: unknown) => e);
    expect(flagHint(notFound)).toMatch(/-o\/--output-dir/);
    expect(
      flagHint(new RunFolderNotEmptyError("out/evals/e--m/abc", "out/evals/e--m/abc/results.jsonl")),
    ).toBe("resume it with -R out/evals/e--m/abc");
    const mismatch = new ResumeSettingsMismatchError("out/evals/e--m/abc", [
      { key: "model", saved: "a", now: "b" },
    ]);
    expect(flagHint(mismatch)).toMatch(/-R out\/evals\/e--m\/abc.*drop -R\/--resume/);
    expect(flagHint(new RunLockedError("out/evals/e--m/abc", 4242, "box", "2026-01-01T00:00:00Z"))).toMatch(
      /without -R/,
    );
    expect(
      flagHint(new OutputFolderError("/etc/passwd/evals", "/etc/passwd is a file, not a folder")),
    ).toMatch(/-o\/--output-dir/);
    expect(flagHint(new Error("other"))).toBeUndefined();
  });
});
