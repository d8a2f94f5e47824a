// examples/rl-recipe.ts runs: the recipe's config with overrides that point it at a tiny fresh model
// and the toy `vowels` environment, for two steps.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VOWELS_ENV, writeTinyModel } from "@vf-rl/train/testing";
import { describe, expect, it } from "vitest";
import { rlRecipe } from "./rl-recipe.ts";

describe("the vf train recipe example", () => {
  it("trains from its TOML config, overridden from the command line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-rl-recipe-"));
    try {
      const result = await rlRecipe(
        [
          ...["--model", await writeTinyModel(join(dir, "model"), { seed: 5 })],
          ...["--env.id", VOWELS_ENV, "--output_dir", join(dir, "run"), "--max_steps", "2"],
          ...["--batch_size", "16", "--rollouts_per_example", "4", "--micro_batch_size", "8"],
          ...["--sampling.max_tokens", "12", "--eval.num_examples", "4"],
        ],
        () => {},
      );
      expect(result).toMatchObject({ steps: 2, interrupted: false });
      expect(existsSync(result.curve.html)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
