import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ResumeSettingsMismatchError,
  RunFolderNotEmptyError,
  RunsFolderNotFoundError,
  UserError,
} from "../errors.ts";
import { RolloutRecord } from "../records/rollout-record.ts";
import { RunMetadata } from "../records/run-metadata.ts";
import { listRuns } from "./list-runs.ts";
import { planResume } from "./plan-resume.ts";
import { runDirectory } from "./run-directory.ts";
import { RunWriter } from "./run-writer.ts";

// A flag such as -R, -o or --resume: core is also driven by `vf train`, where settings are config keys.
const FLAG = /(^|[\s(/])-{1,2}[A-Za-z]/;

const settings = {
  env_args: {},
  num_examples: 1,
  rollouts_per_example: 1,
  shuffle: false,
  shuffle_seed: 0,
  sampling_args: {},
};

async function savedRun(): Promise<{ outputDir: string; dir: string }> {
  const outputDir = await mkdtemp(join(tmpdir(), "vf-errors-"));
  const dir = runDirectory({ outputDir, envId: "echo", model: "m", runId: "run00001" });
  const writer = await RunWriter.open({ dir });
  await writer.writeMetadata(
    RunMetadata.parse({ env_id: "echo", model: "m", ...settings, status: "interrupted" }),
  );
  await writer.append([
    RolloutRecord.parse({
      example_id: 0,
      prompt: [{ role: "user", content: "q" }],
      completion: [{ role: "assistant", content: "a" }],
      reward: 1,
    }),
  ]);
  await writer.close();
  return { outputDir, dir };
}

describe("errors of saved runs", () => {
  it("name the setting in words, never a command-line flag, and carry the fields a host needs", async () => {
    const { outputDir, dir } = await savedRun();

    const notEmpty = await RunWriter.open({ dir }).catch((e: unknown) => e);
    expect(notEmpty).toBeInstanceOf(RunFolderNotEmptyError);
    expect(notEmpty).toBeInstanceOf(UserError);
    expect((notEmpty as RunFolderNotEmptyError).dir).toBe(dir);
    expect((notEmpty as Error).message).toContain("resume this one");
    expect((notEmpty as Error).message).not.toMatch(FLAG);

    const missing = join(outputDir, "no-such-folder");
    const notFound = await listRuns(missing).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(RunsFolderNotFoundError);
    expect((notFound as RunsFolderNotFoundError).path).toBe(missing);
    expect((notFound as Error).message).toContain("output folder");
    expect((notFound as Error).message).not.toMatch(FLAG);

    const differ = await planResume({
      outputDir,
      envId: "echo",
      model: "other",
      settings,
      runDir: dir,
    }).catch((e: unknown) => e);
    expect(differ).toBeInstanceOf(ResumeSettingsMismatchError);
    expect((differ as ResumeSettingsMismatchError).mismatches).toEqual([
      { key: "model", saved: "m", now: "other" },
    ]);
    expect((differ as Error).message).toContain("start a new run instead of resuming");
    expect((differ as Error).message).not.toMatch(FLAG);
  });
});
