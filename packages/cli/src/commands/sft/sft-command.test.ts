// `vf sft` end to end: a fresh tiny model fine-tuned on a JSONL file and on an environment's
// reference answers, with its outputs on disk; saved rollouts filtered by reward, and those with a
// tool turn trained on the model's tool call but not on the tool's reply; and each kind of bad input
// as one line.
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalTrainer, loadCheckpoint, renderChat, tokenizer } from "@vf-rl/engine";
import { runVf } from "@vf-rl/test-support";
import { type DataSource, readDataSource } from "@vf-rl/train/supervised";
import { writeTinyModel } from "@vf-rl/train/testing";
import { beforeAll, describe, expect, it } from "vitest";

const ECHO_ENV = fileURLToPath(
  new URL("../../../../core/src/loading/test-packages/echo-env", import.meta.url),
);
const TINY = '{"dModel": 32, "nLayers": 1, "nHeads": 2, "dFF": 64, "maxSeqLen": 64}';
let dir: string;
let data: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-sft-cli-"));
  data = join(dir, "chats.jsonl");
  const lines = ["cat", "dog", "sun", "map", "pen", "cup", "box", "hat", "key", "bus", "owl", "fig"].map(
    (w) =>
      JSON.stringify({
        messages: [
          { role: "user", content: `Say ${w}.` },
          { role: "assistant", content: w },
        ],
      }),
  );
  await writeFile(data, `${lines.join("\n")}\n`);
});

describe("vf sft", () => {
  it("fine-tunes a fresh model on a JSONL file and prints the final checkpoint", async () => {
    const out = join(dir, "from-jsonl");
    const result = await runVf([
      "sft",
      "--data",
      data,
      "--config",
      TINY,
      "--steps",
      "6",
      "--batch-size",
      "4",
      "--lr",
      "0.01",
      "--threads",
      "1",
      "-o",
      out,
    ]);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(join(out, "final"));
    expect(result.stderr).toContain(`${data}: 12 conversations`);
    expect(result.stderr).toMatch(/on 11 conversations \(1 held out\), 6 steps of 4/);
    expect(result.stderr).toMatch(/6 steps: train loss \d+\.\d+, eval loss \d+\.\d+/);
    expect((await readdir(out)).sort()).toEqual(["final", "loss-curve.svg", "metrics.jsonl"]);
    expect((await readFile(join(out, "metrics.jsonl"), "utf8")).trim().split("\n")).toHaveLength(6);
    expect((await loadCheckpoint(join(out, "final"))).config.dModel).toBe(32);
  });

  it("fine-tunes on an environment's rows with their reference answers", async () => {
    const out = join(dir, "from-env");
    const result = await runVf([
      "sft",
      "--env",
      ECHO_ENV,
      "-a",
      '{"words": ["a", "b", "c"]}',
      "--config",
      TINY,
      "--steps",
      "2",
      "--threads",
      "1",
      "-o",
      out,
    ]);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${ECHO_ENV}: 3 training rows with reference answers`);
    expect(result.stdout.trim()).toBe(join(out, "final"));
    // It ends with the command that evaluates the result on that environment, with its arguments.
    const command = /^evaluate it: (npx )?vf (eval .*)$/m.exec(result.stderr)?.[2];
    expect(command).toBe(`eval ${ECHO_ENV} -m ${join(out, "final")} -a '{"words":["a","b","c"]}'`);
    // -m also takes the output folder itself: its final weights.
    const evaluated = await runVf([
      "eval",
      ECHO_ENV,
      "-m",
      out,
      "-a",
      '{"words": ["a", "b", "c"]}',
      "-n",
      "2",
      "-r",
      "1",
      "-t",
      "4",
      "--json",
    ]);
    expect(evaluated.stderr).not.toMatch(/^error:/m);
    expect(evaluated.code).toBe(0);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ model: join(out, "final"), avg_error: 0 });
  });
});

describe("vf sft on saved rollouts", () => {
  const train = (args: string[]) =>
    runVf(["sft", ...args, "--config", TINY, "--steps", "1", "--batch-size", "2", "--threads", "1"]);

  it("distils the best rollout of each example from a run folder of vf eval -s", async () => {
    const outputs = join(dir, "eval-outputs");
    const evaluated = await runVf([
      "eval",
      "reverse-text",
      "-n",
      "3",
      "-r",
      "2",
      "-s",
      "-o",
      outputs,
      "--json",
    ]);
    expect(evaluated.code).toBe(0);
    const runDir: string = JSON.parse(evaluated.stdout).run_dir;
    const wide = '{"dModel": 32, "nLayers": 1, "nHeads": 2, "dFF": 64, "maxSeqLen": 512}';
    const result = await runVf([
      "sft",
      "--data",
      runDir,
      "--best-of-group",
      "--config",
      wide,
      "--steps",
      "1",
      "--batch-size",
      "2",
      "--threads",
      "1",
      "-o",
      join(dir, "best"),
    ]);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `${runDir}: 3 of 6 rollouts kept (dropped: 3 not the best of their group)`,
    );
    // the saved run names its environment, so the command that evaluates the result does too
    expect(result.stderr).toMatch(
      new RegExp(`^evaluate it: (npx )?vf eval reverse-text -m ${join(dir, "best", "final")}$`, "m"),
    );
  });

  it("keeps the rows of a results file at or above --min-reward, and trains on prompt + completion rows", async () => {
    const rollout = (id: number, reward: number) =>
      JSON.stringify({
        example_id: id,
        prompt: [{ role: "user", content: `Say ${id}.` }],
        completion: [
          { role: "assistant", content: "hm" },
          { role: "user", content: "again" },
          { role: "assistant", content: String(id) },
        ],
        reward,
      });
    const results = join(dir, "saved.jsonl");
    await writeFile(
      results,
      `${[rollout(0, 1), rollout(1, 0.25), rollout(2, 0.5), rollout(3, 1)].join("\n")}\n`,
    );
    const kept = await train(["--data", results, "--min-reward", "0.5", "-o", join(dir, "min-reward")]);
    expect(kept.code).toBe(0);
    expect(kept.stderr).toContain(`${results}: 3 of 4 rollouts kept (dropped: 1 below the minimum reward)`);

    const pairs = join(dir, "pairs.jsonl");
    await writeFile(pairs, `${JSON.stringify({ prompt: "Say 1.", completion: "1" })}\n`.repeat(4));
    const plain = await train(["--data", pairs, "-o", join(dir, "pairs")]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain(`${pairs}: 4 prompt + completion rows`);

    const unfiltered = await train(["--data", data, "--min-reward", "1"]);
    expect(unfiltered.code).toBe(1);
    expect(unfiltered.stderr).toMatch(/has no rewards, so --min-reward and --best-of-group cannot filter it/);
  });
});

describe("vf sft on saved rollouts with a tool turn", () => {
  const WORDS = ["cat", "dog", "sun", "map", "pen", "cup", "box", "hat"];
  /** A rollout that looks the word up, reads the tool's entry (upper case) and answers. */
  const rollout = (word: string, i: number) => ({
    example_id: i,
    prompt: [{ role: "user", content: `Define ${word}.` }],
    completion: [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: `c${i}`,
            type: "function",
            function: { name: "lookup", arguments: JSON.stringify({ word }) },
          },
        ],
      },
      { role: "tool", tool_call_id: `c${i}`, content: `ENTRY ${word.toUpperCase()}: QUIZ JAB VEX` },
      { role: "assistant", content: `a ${word} is a ${word}.` },
    ],
    tool_defs: [
      {
        type: "function",
        function: {
          name: "lookup",
          description: "Look a word up.",
          parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
        },
      },
    ],
    reward: 1,
  });

  /**
   * Mean log-probability a checkpoint gives the tokens of the model's tool call (its first turn, to
   * <|eot|>) and of the tool's reply (its text), over the conversations as vf sft reads them.
   */
  async function spanLogprobs(checkpoint: string, source: DataSource) {
    const trainer = await createLocalTrainer({ checkpoint });
    try {
      const sums = { call: [0, 0], tool: [0, 0] };
      for (const messages of source.conversations) {
        const tokens = renderChat(messages);
        const mask = tokens.map((_, i) => (i === 0 ? 0 : 1));
        const { logprobs } = await trainer.forward([{ tokens, mask }], { type: "cross_entropy" });
        const call = tokens.indexOf(tokenizer.special("<|assistant|>"));
        const tool = tokens.indexOf(tokenizer.special("<|tool|>"));
        const add = (span: number[], from: number, to: number) => {
          for (let i = from; i < to; i++) {
            span[0]! += logprobs[0]![i]!;
            span[1]! += 1;
          }
        };
        add(sums.call, call + 1, tokens.indexOf(tokenizer.eot, call) + 1);
        add(sums.tool, tool + 1, tokens.indexOf(tokenizer.eot, tool));
      }
      return { call: sums.call[0]! / sums.call[1]!, tool: sums.tool[0]! / sums.tool[1]! };
    } finally {
      await trainer.close();
    }
  }

  it("trains the assistant's tool call and not the tool's reply", async () => {
    const results = join(dir, "tool-rollouts.jsonl");
    await writeFile(results, `${WORDS.map((w, i) => JSON.stringify(rollout(w, i))).join("\n")}\n`);
    // A fresh model to start from, its context long enough for the tool's description too.
    const start = join(dir, "tool-start");
    await writeTinyModel(start, { maxSeqLen: 1024 });

    const out = join(dir, "tool-sft");
    const trained = await runVf([
      "sft",
      "--data",
      results,
      "--model",
      start,
      "--steps",
      "40",
      "--batch-size",
      "4",
      "--lr",
      "0.01",
      "--threads",
      "1",
      "-o",
      out,
    ]);
    expect(trained.stderr).not.toMatch(/^error:/m);
    expect(trained.code).toBe(0);
    // every rollout kept and trained on: none skipped for its tool turn
    expect(trained.stderr).toContain(`${results}: 8 of 8 rollouts kept\n`);

    const source = await readDataSource(results, {});
    const before = await spanLogprobs(start, source);
    const after = await spanLogprobs(join(out, "final"), source);
    // The tool call is learned; the tool's reply, never a target, is no likelier than before.
    expect(after.call).toBeGreaterThan(before.call + 2);
    expect(after.tool).toBeLessThan(before.tool);
  }, 120_000);
});

describe("vf sft's bad input", () => {
  const oneLine = (stderr: string): string[] => stderr.trim().split("\n");

  it("says what is wrong with a data file, naming the line", async () => {
    const bad = join(dir, "bad.jsonl");
    await writeFile(bad, '{"messages": [{"role": "user", "content": "hi"}]}\n');
    const result = await runVf(["sft", "--data", bad, "--config", TINY, "--steps", "1"]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toEqual([
      `error: ${bad}:1: messages: has no assistant message: nothing to train on: each line must be {"messages": [{"role": ..., "content": ...}, ...]} with an assistant turn`,
    ]);
  });

  it("asks for data when there is none, and refuses two starting models", async () => {
    const none = await runVf(["sft", "--config", TINY]);
    expect(none.code).toBe(1);
    expect(oneLine(none.stderr)[0]).toMatch(
      /^error: no training data: pass --data FILE.jsonl\|RUN_DIR or --env ID/,
    );
    const both = await runVf(["sft", "--data", data, "--model", dir, "--config", TINY]);
    expect(oneLine(both.stderr)).toEqual([
      "error: --model and --config both say where the model starts: pass one of them",
    ]);
  });

  it("names the bad key of a fresh model's config", async () => {
    const result = await runVf(["sft", "--data", data, "--config", '{"dModel": 30, "nHeads": 4}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: invalid model config: nLayers: .*dFF: .*fix these keys.*$/m);
    expect(result.stderr).not.toContain("internal error");
  });
});
