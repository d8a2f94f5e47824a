import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@vf-rl/core";
import { parseOverrides } from "@vf-rl/core/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sftStageConversations } from "../loop/sft-stage-data.ts";
import { VOWELS_ENV } from "../testing/index.ts";
import { type ResolvedTrainConfig, resolveTrainConfig } from "./load-train-config.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-sft-stage-config-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const base = {
  model: { d_model: 32, n_layers: 1, n_heads: 4 },
  env: [{ id: VOWELS_ENV, args: { rows: 4, reference: "aeiou" } }],
};

function resolve(sft: Record<string, unknown> | undefined, args: string[] = []): ResolvedTrainConfig {
  return resolveTrainConfig(
    { raw: { ...base, ...(sft ? { sft } : {}) }, where: "run.toml" },
    parseOverrides(args),
  );
}

function problems(sft: Record<string, unknown>, args: string[] = []): string {
  try {
    resolve(sft, args);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("the [sft] table", () => {
  it("is absent unless written, and filled with vf sft's defaults when it is", () => {
    expect(resolve(undefined).sft).toBeUndefined();
    expect(resolve({}).sft).toEqual({
      max_steps: 100,
      batch_size: 32,
      lr: 1e-3,
      schedule: "cosine",
      weight_decay: 0.01,
      clip: 1,
      best_of_group: false,
      save_every: 10,
    });
    expect(resolve({}, ["--sft.max_steps", "20", "--sft.lr", "3e-3"]).sft).toMatchObject({
      max_steps: 20,
      lr: 3e-3,
    });
  });

  it("refuses unknown keys, and a reward filter without saved rollouts to filter", () => {
    expect(problems({ steps: 10 })).toMatch(
      /^run\.toml: unknown key "sft\.steps": valid keys here are max_steps, batch_size, lr, /,
    );
    expect(problems({ min_reward: 1 })).toBe(
      "run.toml: sft.min_reward (1): filters saved rollouts, and [sft] has no data: set data to a vf eval -s run folder (or its results.jsonl)",
    );
  });

  it("trains on the [[env]] rows' references by default, or on its data files", async () => {
    const config = resolve({});
    const references = await sftStageConversations(config, config.sft!);
    expect(references.train).toHaveLength(4);
    expect(references.train[0]!.at(-1)).toEqual({ role: "assistant", content: "aeiou" });
    expect(references.eval).toHaveLength(8); // vowels' own eval split, for the eval loss

    const file = join(dir, "chats.jsonl");
    const chat = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "oui" },
    ];
    await writeFile(file, `${JSON.stringify({ messages: chat })}\n`.repeat(3));
    const withData = resolve({ data: file });
    const conversations = await sftStageConversations(withData, withData.sft!);
    expect(conversations.train).toHaveLength(3);
    expect(conversations.notes).toEqual([`${file}: 3 conversations`]);
  });
});
