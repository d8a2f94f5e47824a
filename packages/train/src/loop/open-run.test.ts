import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core";
import { CheckpointError } from "@vf-rl/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveTrainConfig } from "../config/load-train-config.ts";
import { tinyRunConfig } from "../testing/index.ts";
import { openTrainer } from "./open-run.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-open-run-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("opening a run's trainer", () => {
  it("reports a model folder the engine cannot read as a user error naming the model key", async () => {
    const missing = join(root, "empty-folder");
    await mkdir(missing);
    const config = resolveTrainConfig({
      raw: tinyRunConfig(join(root, "run"), { model: missing }),
      where: "test",
    });
    const error = await openTrainer(config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toBe(
      `model: cannot read ${missing}/config.json (ENOENT): pass a directory written by saveWeights`,
    );
    expect((error as UserError).cause).toBeInstanceOf(CheckpointError);
  });
});
