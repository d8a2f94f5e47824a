// `vf doctor` end to end: the real binary runs the first-run protocol on the toy `vowels`
// environment against an engine server on a tiny fresh model, and prints numbers and advice.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startScriptedServer } from "@vf-rl/core/testing";
import { type EngineServer, startEngineServer } from "@vf-rl/engine";
import { runVf } from "@vf-rl/test-support";
import { VOWELS_ENV, writeTinyModel } from "@vf-rl/train/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
let server: EngineServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-doctor-"));
  server = await startEngineServer({
    checkpoint: await writeTinyModel(join(dir, "model"), { seed: 3 }),
    modelName: "tiny",
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("vf doctor", () => {
  // The doctor seeds every request from --seed (default 0), so the fresh model writes the same 32
  // tokens on every run and the rewards are the same numbers: continuous ones. Unseeded, they fell
  // on two values about once in fifteen runs over 10 tokens, and the doctor rightly said binary.
  it("measures the baseline, the reward spread in groups, and advises on the training config", async () => {
    const args = ["doctor", VOWELS_ENV, "-m", "tiny", "-b", server.url, "-n", "6", "-r", "4", "-t", "32"];
    const text = await runVf(args);
    expect(text.stderr).not.toMatch(/^error:/m);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^vowels with tiny: 6 groups x 4 rollouts$/m);
    expect(text.stdout).toMatch(/^ {2}reward {10}[\d.]+ ± [\d.]+, 95% CI \[/m);
    expect(text.stdout).toMatch(/^ {2}- rewards are continuous/m);
    expect(text.stdout).toMatch(/^suggested config:\n {2}rollouts_per_example = \d+\n {2}batch_size = \d+/m);

    const json = await runVf([...args, "--json"]);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({
      envId: "vowels",
      groups: 6,
      rollouts: 24,
      binary: false,
      withoutTokens: 0,
      errored: 0,
    });
    expect(report.groupsWithSpread).toBeGreaterThan(0);
    expect(report.advice.length).toBeGreaterThan(1);
    // the second run sampled what the first did
    const { mean, std } = report.reward;
    expect(text.stdout).toContain(`reward          ${mean.toFixed(3)} ± ${std.toFixed(3)},`);
  }, 60_000);

  it("says in words that every rollout scored 0, instead of 0% of groups all failing", async () => {
    // A model that writes no vowel: vowels' reward is 0 for every rollout.
    const scripted = await startScriptedServer({ reply: () => "rhythm" });
    try {
      const args = ["doctor", VOWELS_ENV, "-m", "scripted", "-b", scripted.url, "-n", "3", "-r", "2"];
      const text = await runVf(args);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^ {2}reward {10}0 for every rollout \(constant\)$/m);
      expect(text.stdout).toMatch(
        /^ {2}outcome {9}every rollout scored 0: no group has a rollout that did better or worse than another$/m,
      );
      expect(text.stdout).not.toContain("0% / 0%");
    } finally {
      await scripted.close();
    }
  }, 60_000);

  it("samples other tokens with another --seed", async () => {
    const args = ["doctor", VOWELS_ENV, "-m", "tiny", "-b", server.url, "-n", "6", "-r", "4", "-t", "32"];
    const reward = async (seed: string) =>
      JSON.parse((await runVf([...args, "--seed", seed, "--json"])).stdout).reward;
    const [first, again, other] = await Promise.all([reward("1"), reward("1"), reward("2")]);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  }, 60_000);
});
