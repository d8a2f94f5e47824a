// `vf view` on what old verifiers releases saved: a 0.1.2.post1 run shows the sampling settings it
// kept at the top level of metadata.json, and the layouts vf does not read (0.1.2's Hugging Face
// dataset folder, the v1 eval's config.toml + traces.jsonl) get one line saying what they are and
// what to do, with a non-zero exit.
import { fileURLToPath } from "node:url";
import { runVf } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";

const fixtures = fileURLToPath(new URL("../../core/src/results/fixtures/", import.meta.url));

describe("vf view on runs of old verifiers releases", () => {
  it("shows a verifiers 0.1.2.post1 run with its max_tokens and temperature as sampling settings", async () => {
    const dir = `${fixtures}verifiers-0.1.2.post1`;
    const result = await runVf(["view", "--json", dir]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject([
      {
        dir,
        env_id: "arith",
        model: "gpt-4.1-mini",
        sampling_args: { max_tokens: 1024, temperature: 0.7 },
        avg_reward: 0.75,
        rows: 4,
        status: "complete",
      },
    ]);
  });

  it.each([
    [
      "verifiers 0.1.2's dataset folder",
      "verifiers-0.1.2",
      "is a Hugging Face dataset folder (save_to_disk)",
    ],
    [
      "a verifiers v1 eval run",
      "verifiers-0.2-v1",
      "is a run of verifiers' v1 eval (config.toml and traces.jsonl",
    ],
  ])("names %s in one line, says what to do, and exits 1", async (_, folder, what) => {
    const dir = `${fixtures}${folder}`;
    for (const args of [
      ["view", dir],
      ["view", "--json", dir],
    ]) {
      const result = await runVf(args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`error: ${dir} ${what}`);
      expect(lines[0]).toMatch(/evaluate again with vf eval -s/);
    }
  });
});
