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

  it("reads verifiers' model keys: provider, api_base_url, api_client_type and headers from state", async () => {
    const path = await config(`
provider = "anthropic"
api_client_type = "anthropic_messages"
headers_from_state = { X-Session-ID = "trajectory_id" }
header = ["X-Team: rl"]

[[eval]]
id = "gsm8k"
model = "claude-sonnet-5-5"
api_base_url = "http://127.0.0.1:9/v1"
api_key_var = "MY_KEY"
headers = { X-Run = "7" }
header_from_state = ["X-Example: example_id", "X-Session-ID=example_id"]
`);
    const [spec] = await loadEvalConfig(path);
    expect(spec).toMatchObject({
      provider: "anthropic",
      type: "anthropic_messages",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKeyVar: "MY_KEY",
      headers: { "X-Team": "rl", "X-Run": "7" },
      // the list wins over the table, as in verifiers
      headersFromState: { "X-Session-ID": "example_id", "X-Example": "example_id" },
    });
  });

  it("names a bad client type, provider, header line, base URL or temperature", async () => {
    const bad = async (text: string) =>
      (await loadEvalConfig(await config(`${text}\n[[eval]]\nid = "gsm8k"\n`)).catch(
        (e: Error) => e,
      )) as Error;
    expect((await bad(`api_client_type = "renderer"`)).message).toMatch(/api_client_type/);
    expect((await bad(`provider = "azure"`)).message).toMatch(/provider/);
    expect((await bad(`header_from_state = ["no separator"]`)).message).toMatch(/header_from_state/);
    expect((await bad(`base_url = "http://a/v1"\napi_base_url = "http://b/v1"`)).message).toMatch(
      /both "base_url" and "api_base_url"/,
    );
    expect((await bad(`base_url = "localhost:8000/v1"`)).message).toMatch(
      /base_url: must be an http:\/\/ or https:\/\/ URL/,
    );
    expect((await bad("temperature = -0.5")).message).toMatch(/temperature: must be 0 or more/);
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
    await expect(loadEvalConfig(await config('model = "x"\n'))).rejects.toThrow(
      /has no \[\[eval\]\] or \[\[ablation\]\] blocks/,
    );
    await expect(loadEvalConfig(join(dir, "missing.toml"))).rejects.toThrow(/cannot read .*missing.toml/);
    await expect(loadEvalConfig(await config("[[eval]]\nnum_examples = 3\n"))).rejects.toThrow(/has no id/);
  });
});

describe("ablation sweeps", () => {
  it("run the cartesian product of their lists, each labelled by its values, after the [[eval]] blocks", async () => {
    const path = await config(`
model = "m"
[[eval]]
id = "wordle"
[[ablation]]
id = "gsm8k"
num_examples = 4
args = { split = "test" }
[ablation.sweep]
temperature = [0.0, 0.7]
[ablation.sweep.args]
lenient = [false, true]
`);
    const specs = await loadEvalConfig(path);
    expect(specs.map((s) => [s.envId, s.label])).toEqual([
      ["wordle", undefined],
      ["gsm8k", "temperature=0, args.lenient=false"],
      ["gsm8k", "temperature=0, args.lenient=true"],
      ["gsm8k", "temperature=0.7, args.lenient=false"],
      ["gsm8k", "temperature=0.7, args.lenient=true"],
    ]);
    expect(specs[4]).toMatchObject({
      model: "m",
      numExamples: 4,
      envArgs: { split: "test", lenient: true },
      sampling: { temperature: 0.7 },
    });
    // each cell its own arguments, not the last cell's
    expect(specs.slice(1).map((s) => s.envArgs)).toEqual([
      { split: "test", lenient: false },
      { split: "test", lenient: true },
      { split: "test", lenient: false },
      { split: "test", lenient: true },
    ]);
  });

  it("sweep environments and sampling tables too, and a name labels a block", async () => {
    const path = await config(`
[[eval]]
id = "wordle"
name = "baseline"
[[ablation]]
[ablation.sweep]
id = ["reverse-text", "alphabet-sort"]
[ablation.sweep.sampling]
top_p = [0.5, 1.0]
`);
    const specs = await loadEvalConfig(path);
    expect(specs[0]!.label).toBe("baseline");
    expect(specs.slice(1).map((s) => [s.envId, s.sampling])).toEqual([
      ["reverse-text", { top_p: 0.5 }],
      ["reverse-text", { top_p: 1 }],
      ["alphabet-sort", { top_p: 0.5 }],
      ["alphabet-sort", { top_p: 1 }],
    ]);
  });

  it("say what is wrong with a sweep in one line", async () => {
    const cases: Array<[string, RegExp]> = [
      ['[[ablation]]\nid = "a"\n', /\[\[ablation\]\] #1 has no \[ablation.sweep\] values/],
      [
        '[[ablation]]\nid = "a"\n[ablation.sweep]\ntemperature = 0.7\n',
        /sweep.temperature must be a non-empty list/,
      ],
      [
        '[[ablation]]\nid = "a"\nargs = { k = 1 }\n[ablation.sweep.args]\nk = [1, 2]\n',
        /args.k is both fixed and swept/,
      ],
      [
        '[[ablation]]\nid = "a"\n[ablation.sweep]\ntemprature = [0.1]\n',
        /unknown key "temprature": did you mean "temperature"/,
      ],
      [
        `[[ablation]]\nid = "a"\n[ablation.sweep]\nshuffle_seed = [${Array.from({ length: 300 }, (_, i) => i).join(", ")}]\n`,
        /sweeps 300 combinations \(at most 256\)/,
      ],
    ];
    for (const [text, message] of cases) {
      await expect(loadEvalConfig(await config(text))).rejects.toThrow(message);
    }
  });
});
