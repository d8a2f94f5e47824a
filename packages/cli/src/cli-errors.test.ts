import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ApiKeyRejectedError,
  EndpointRegistryUnreadableError,
  EndpointUnreachableError,
  EnvironmentNotFoundError,
  EnvSettingsError,
  GroupScoringRequiredError,
  MissingKeyError,
  ModelEndpointUnknownError,
  ModelNotFoundError,
  OutputFolderError,
  ResumeSettingsMismatchError,
  RunFolderNotEmptyError,
  RunLockedError,
  SamplingArgsError,
} from "@vf-rl/core/errors";
import { listRuns } from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { flagHint } from "./cli-errors.ts";
import { vfCommand } from "./vf-command.ts";

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

  it("names vf eval's flag, or under vf train the config key, for the setting an error of core names", () => {
    const missingKey = new MissingKeyError("MY_KEY");
    expect(flagHint(missingKey, "eval")).toMatch(/^-k\/--api-key-var/);
    expect(flagHint(missingKey, "train")).toMatch(/^api_key_var in \[inference\]/);
    const sampling = new SamplingArgsError("bad", "extra_body");
    expect(flagHint(sampling, "eval")).toMatch(/-S\/--sampling-args/);
    expect(flagHint(sampling, "train")).toBe("fix extra_body in [sampling] of the config");
    expect(flagHint(new GroupScoringRequiredError(), "eval")).toBe("drop -i/--independent-scoring");
    expect(flagHint(new EnvSettingsError("bad"), "eval")).toMatch(/-x\/--extra-env-kwargs/);
    expect(flagHint(new ModelEndpointUnknownError("m", undefined), "eval")).toMatch(/-b\/--api-base-url/);
    expect(flagHint(new EndpointRegistryUnreadableError("x.toml", "ENOENT"), "eval")).toMatch(
      /-e\/--endpoints-path/,
    );
    expect(flagHint(new EndpointUnreachableError("http://h/v1"), "train")).toMatch(/url in \[inference\]/);
    // Not installed from a Hub: the same command under every host.
    for (const command of ["eval", "train", undefined]) {
      expect(flagHint(new EnvironmentNotFoundError("a/b@1.0.0", "not installed", true), command)).toBe(
        `install it with ${vfCommand("env install a/b@1.0.0")}`,
      );
    }
    expect(flagHint(new EnvironmentNotFoundError("nope", "known: x"), "eval")).toBeUndefined();
    const rejected = new ApiKeyRejectedError("http://h/v1", 401, "MY_KEY");
    expect(flagHint(rejected, "eval")).toMatch(/^-k\/--api-key-var/);
    expect(flagHint(rejected, "train")).toMatch(/^api_key_var in \[inference\]/);
    expect(flagHint(new ModelNotFoundError("m", "http://h/v1", "no such model"), "eval")).toMatch(
      /^-m\/--model/,
    );
    // A run that stopped on one of them: the hint of its cause.
    const stopped = new Error("the run stopped early", { cause: rejected });
    expect(flagHint(stopped, "eval")).toBe(flagHint(rejected, "eval"));
  });
});
