import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEvalConfig } from "./eval-config.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-evalcfg-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function config(text: string): Promise<string> {
  const path = join(dir, "eval.toml");
  await writeFile(path, text);
  return path;
}

describe("eval configs", () => {
  it("gives every [[eval]] block the top-level defaults, its own keys winning", async () => {
    const path = await config(`
model = "gpt-4.1-mini"
rollouts_per_example = 3
[sampling]
temperature = 0.5
max_tokens = 100

[[eval]]
id = "gsm8k"
num_examples = 50
[eval.sampling]
temperature = 0.9

[[eval]]
env_id = "wordle"
endpoint_id = "qwen3"
args = { maxGuesses = 4 }
`);
    const specs = await loadEvalConfig(path);
    expect(specs).toEqual([
      expect.objectContaining({
        envId: "gsm8k",
        model: "gpt-4.1-mini",
        numExamples: 50,
        rolloutsPerExample: 3,
        sampling: { temperature: 0.9, max_tokens: 100 },
      }),
      expect.objectContaining({
        envId: "wordle",
        model: "qwen3",
        envArgs: { maxGuesses: 4 },
        sampling: { temperature: 0.5, max_tokens: 100 },
      }),
    ]);
  });

  it("names an unknown key and suggests the one meant", async () => {
    const path = await config(`rollout_per_example = 3\n[[eval]]\nid = "gsm8k"\n`);
    await expect(loadEvalConfig(path)).rejects.toThrow(
      /unknown key "rollout_per_example": did you mean "rollouts_per_example"\?/,
    );
  });

  it("names the block and key of a bad value", async () => {
    const path = await config(`[[eval]]\nid = "a"\n[[eval]]\nid = "b"\nnum_examples = "ten"\n`);
    await expect(loadEvalConfig(path)).rejects.toThrow(/\[\[eval\]\] #2: num_examples: .*expected number/);
  });

  it("takes only -1 as all examples: another negative count is a mistake", async () => {
    const path = await config(`num_examples = -5\n[[eval]]\nid = "a"\n`);
    await expect(loadEvalConfig(path)).rejects.toThrow(/num_examples: must be at least 1, or -1 for all/);
    const all = await config(`num_examples = -1\n[[eval]]\nid = "a"\n`);
    expect((await loadEvalConfig(all))[0]!.numExamples).toBe(-1);
  });

  it("says what is wrong with a file that is not TOML or has no evaluations", async () => {
    await expect(loadEvalConfig(await config("model = \n"))).rejects.toThrow(/is not valid TOML/);
    await expect(loadEvalConfig(await config('model = "x"\n'))).rejects.toThrow(/has no \[\[eval\]\] blocks/);
    await expect(loadEvalConfig(join(dir, "missing.toml"))).rejects.toThrow(/cannot read .*missing.toml/);
    await expect(loadEvalConfig(await config("[[eval]]\nnum_examples = 3\n"))).rejects.toThrow(/has no id/);
  });
});
