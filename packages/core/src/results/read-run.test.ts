import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UserError } from "../errors.ts";
import type { AssistantMessage, ToolMessage } from "../messages/message.ts";
import { readRun } from "./read-run.ts";
import { formatWarning } from "./read-warning.ts";

/** Runs written by Python verifiers (its older layout), copied from shared/fixtures/verifiers-outputs. */
const evals = fileURLToPath(new URL("./fixtures/verifiers-outputs/evals/", import.meta.url));
const mathPython = join(evals, "math-python--gpt-4.1-mini/578769a7");
const toolTest = join(evals, "tool-test--gpt-4.1-mini/5cde0948");
const wikiSearch = join(evals, "wiki-search--gpt-5/73850758");
const wordle = join(evals, "wordle--gpt-4.1-mini/816ec3b0");

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("readRun on files written by Python verifiers", () => {
  it("loads math-python: `env`, `time_ms`, rows keyed `id`, tool calls as JSON strings", async () => {
    const run = await readRun(mathPython);
    expect(run.warnings).toEqual([]);
    expect(run.metadata).toMatchObject({
      env_id: "math-python",
      model: "gpt-4.1-mini",
      num_examples: 5,
      rollouts_per_example: 3,
      date: "2025-09-30T00:47:48",
      status: "complete",
      avg_metrics: { total_tool_calls: 2, python_calls: 2, correct_answer_reward_func: 0.9333333333333333 },
    });
    expect(run.metadata.time).toBeCloseTo(34.940431118, 6);
    expect(run.records).toHaveLength(15);
    expect(run.records.map((r) => `${r.example_id}/${r.rollout_index}`)).toEqual([
      ...["0/0", "0/1", "0/2", "1/0", "1/1", "1/2", "2/0", "2/1", "2/2"],
      ...["3/0", "3/1", "3/2", "4/0", "4/1", "4/2"],
    ]);
    expect(run.records.map((r) => r.reward)).toEqual([1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);

    const first = run.records[0]!;
    expect(first.metrics).toEqual({ total_tool_calls: 2, python_calls: 2, correct_answer_reward_func: 1 });
    expect(first.timing).toMatchObject({ generation_ms: 14311.0961914062, scoring_ms: 0.9670257568 });
    expect(first.timing?.total_ms).toBeCloseTo(14312.574, 3);
    expect(first.prompt[0]).toEqual({
      role: "system",
      content: "Use python for all calculations. Give your answer inside \\boxed{}.",
    });
    expect(first.completion.map((m) => m.role)).toEqual([
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    const call = (first.completion[0] as AssistantMessage).tool_calls![0]!;
    expect(call).toMatchObject({ id: "call_RYna5gb2agTQButNTFngPJmD", type: "function" });
    expect(call.function.name).toBe("python");
    expect(JSON.parse(call.function.arguments).code).toContain("from sympy import symbols");
    // The tool answer is tied to the call it answers, which the old file left implicit.
    expect((first.completion[1] as ToolMessage).tool_call_id).toBe("call_RYna5gb2agTQButNTFngPJmD");
    expect((first.completion[1] as ToolMessage).content).toContain("No module named 'sympy'");
    expect((first.completion[4] as AssistantMessage).content).toContain("\\boxed{0}");
    expect(first.tool_defs?.map((t) => t.function.name)).toEqual(["python"]);
    expect(first.info).toEqual({});
  });

  it("loads tool-test: `env_id` already, rows interleaved by example get rollout indices in order", async () => {
    const run = await readRun(toolTest);
    expect(run.warnings).toEqual([]);
    expect(run.metadata).toMatchObject({
      env_id: "tool-test",
      num_examples: 15,
      rollouts_per_example: 1,
      time: 0,
    });
    expect(run.records).toHaveLength(15);
    expect(run.records.map((r) => r.rollout_index)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
    expect(run.records.every((r) => r.reward === 1)).toBe(true);
    expect(run.records[0]!.metrics).toEqual({
      total_tool_calls: 2,
      tool_A_calls: 1,
      tool_B_calls: 1,
      tool_C_calls: 0,
      tool_D_calls: 0,
      tool_call_reward_func: 1,
    });
    expect(run.records[0]!.tool_defs?.map((t) => t.function.name)).toEqual([
      "tool_A",
      "tool_B",
      "tool_C",
      "tool_D",
    ]);
    expect(run.records[0]!.info).toEqual({ tool_names: ["tool_B", "tool_A"] });
    expect(run.records[0]!.prompt).toEqual([
      {
        role: "user",
        content: "Call the following tools with arguments of your choice: ['tool_B', 'tool_A']",
      },
    ]);
  });

  it("loads wiki-search: 50 single rollouts, reward 0.9, tool calls kept", async () => {
    const run = await readRun(wikiSearch);
    expect(run.warnings).toEqual([]);
    expect(run.metadata).toMatchObject({
      env_id: "wiki-search",
      model: "gpt-5",
      avg_metrics: { judge_reward_func: 0.9 },
    });
    expect(run.records).toHaveLength(50);
    expect(mean(run.records.map((r) => r.reward))).toBeCloseTo(0.9, 10);
    expect(run.records.filter((r) => r.reward < 0.5).map((r) => r.example_id)).toEqual([8, 10, 13, 34, 41]);
    const calls = run.records.flatMap((r) =>
      r.completion.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : [])),
    );
    expect(calls).toHaveLength(32);
    expect(calls[0]).toMatchObject({
      id: "call_oI3nY1lGoXFNdS4vl1tnjHwL",
      function: { name: "search_pages" },
    });
    expect(JSON.parse(calls[0]!.function.arguments)).toEqual({
      query: "film Nefarious demon name possessing death-row inmate what is the demon's name",
    });
    expect(run.records[8]!.completion).toHaveLength(7);
    expect(run.records[0]!.answer).toBe("Hollow ship");
  });

  it("loads wordle: rows keyed `example_id`, multi-turn completions, four reward functions", async () => {
    const run = await readRun(wordle);
    expect(run.warnings).toEqual([]);
    expect(run.records).toHaveLength(15);
    expect(run.records.map((r) => r.completion.length)).toEqual([
      8, 10, 12, 6, 12, 10, 12, 16, 14, 12, 12, 12, 12, 12, 10,
    ]);
    expect(mean(run.records.map((r) => r.reward))).toBeCloseTo(1.19911851852, 10);
    expect(run.records[0]).toMatchObject({
      example_id: 0,
      rollout_index: 0,
      answer: "story",
      reward: 1.37,
      metrics: {
        check_answer_reward_func: 1,
        partial_credit_reward_func: 0,
        count_turns_reward_func: 0.2,
        format_reward_func: 0.85,
      },
    });
    expect(run.records[0]!.completion.slice(0, 2)).toEqual([
      { role: "assistant", content: "<guess>[arise]</guess>" },
      { role: "user", content: "\nA R I S E\nX Y X Y X\nYou have 5 guesses left." },
    ]);
  });
});

async function runFolder(metadata: unknown, results: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vf-read-"));
  await writeFile(join(dir, "metadata.json"), JSON.stringify(metadata));
  await writeFile(join(dir, "results.jsonl"), results);
  return dir;
}

const row = (exampleId: number, reward: number, extra: object = {}) =>
  JSON.stringify({
    example_id: exampleId,
    prompt: [{ role: "user", content: "q" }],
    completion: [{ role: "assistant", content: "a" }],
    reward,
    ...extra,
  });

describe("readRun on damaged or unusual files", () => {
  const meta = { env_id: "e", model: "m", num_examples: 3, rollouts_per_example: 1 };

  it("skips malformed lines, reporting each with its line number, and loads the rest", async () => {
    const dir = await runFolder(
      meta,
      [
        row(0, 1),
        "{not json",
        '"a string"',
        row(1, 0, { reward: "high" }),
        row(2, 0.5),
        '{"example_id": 3, "pro',
      ].join("\n"),
    );
    const run = await readRun(dir);
    expect(run.records.map((r) => r.example_id)).toEqual([0, 2]);
    expect(run.warnings.map((w) => [w.line, w.message.split(" (")[0]])).toEqual([
      [2, "not JSON"],
      [3, "not a JSON object; skipped"],
      [4, "not a valid rollout row"],
      [6, "last line cut short"],
    ]);
    expect(formatWarning(run.warnings[2]!)).toBe(
      `${join(dir, "results.jsonl")}:4: not a valid rollout row (reward: Invalid input: expected number, received string); skipped`,
    );
    // A verifiers run has no status: it is short of rows, so it was interrupted.
    expect(run.metadata.status).toBe("interrupted");
  });

  it("notices rows that repeat a rollout, keeps the first and says so; a full count needs distinct rollouts", async () => {
    const twice = { ...meta, rollouts_per_example: 2, status: "complete" };
    const dir = await runFolder(
      twice,
      [
        row(0, 1, { rollout_index: 0 }),
        row(0, 0, { rollout_index: 1 }),
        row(0, 0.5, { rollout_index: 0 }),
        row(1, 1, { rollout_index: 0 }),
      ].join("\n"),
    );
    const run = await readRun(dir);
    expect(run.records.map((r) => `${r.example_id}/${r.rollout_index}/${r.reward}`)).toEqual([
      "0/0/1",
      "0/1/0",
      "1/0/1",
    ]);
    expect(run.warnings).toEqual([
      expect.objectContaining({
        line: 3,
        message: expect.stringMatching(/^repeats example 0 rollout 0 of line 1 \(two writers appended/),
        duplicate: { exampleId: 0, rolloutIndex: 0, firstLine: 1 },
      }),
    ]);
    // The mean is over the distinct rollouts, whatever the metadata said.
    expect(run.metadata.avg_reward).toBeCloseTo(2 / 3);
  });

  it("turns string prompts and completions, and a string error, into today's shapes", async () => {
    const dir = await runFolder(
      meta,
      `${JSON.stringify({ id: 0, prompt: "2+2=", completion: "4", reward: 1, error: "Timeout", info: '{"level": 2}' })}\n`,
    );
    const [record] = (await readRun(dir)).records;
    expect(record).toMatchObject({
      example_id: 0,
      prompt: [{ role: "user", content: "2+2=" }],
      completion: [{ role: "assistant", content: "4" }],
      error: { error: "Error", message: "Timeout" },
      info: { level: 2 },
    });
  });

  it("names the missing file when a folder is not a run", async () => {
    const empty = await mkdtemp(join(tmpdir(), "vf-read-"));
    await expect(readRun(empty)).rejects.toThrow(UserError);
    await expect(readRun(empty)).rejects.toThrow(`${join(empty, "metadata.json")} does not exist`);
    await writeFile(join(empty, "metadata.json"), JSON.stringify(meta));
    await expect(readRun(empty)).rejects.toThrow(`${join(empty, "results.jsonl")} does not exist`);
  });

  it("names the file and the field when metadata.json is invalid", async () => {
    const dir = await runFolder({ env_id: "e", model: "m", rollouts_per_example: 1 }, "");
    await expect(readRun(dir)).rejects.toThrow(
      /metadata.json is not valid run metadata \(num_examples: .*\)/,
    );
    await writeFile(join(dir, "metadata.json"), "{");
    await expect(readRun(dir)).rejects.toThrow(/metadata.json is not valid JSON/);
  });
});
