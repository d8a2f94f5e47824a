/**
 * Writes a small saved run folder (metadata.json + results.jsonl, verifiers' layout) for report tests,
 * with rollouts that have messages and a tool call, so the rollout browser has something to show.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Options of `writeSampleRun`. */
export interface SampleRunOptions {
  dir: string;
  envId: string;
  model: string;
  runId: string;
  rewards: number[];
  /** The environment arguments the run records; default `{}` (the environment's defaults). */
  envArgs?: Record<string, unknown>;
  /** An agent run's harness and runtime, recorded as vf eval records them; default none. */
  agent?: { harness: string; runtime: string };
}

/** Writes the run and returns its folder. */
export function writeSampleRun(options: SampleRunOptions): string {
  mkdirSync(options.dir, { recursive: true });
  const rows = options.rewards.map((reward, i) => ({
    example_id: Math.floor(i / 2),
    rollout_index: i % 2,
    prompt: [{ role: "user", content: `What is ${i} + ${i}?` }],
    completion: [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: `call_${i}`,
            type: "function",
            function: { name: "calculator", arguments: `{"expression":"${i}+${i}"}` },
          },
        ],
      },
      { role: "tool", tool_call_id: `call_${i}`, content: String(i + i) },
      { role: "assistant", content: `The answer is ${i + i}.` },
    ],
    answer: String(i + i),
    info: {},
    task: "default",
    reward,
    metrics: { correct: reward },
    error: null,
    is_completed: true,
    is_truncated: false,
    stop_condition: "no_tool_calls",
  }));
  writeFileSync(join(options.dir, "results.jsonl"), `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
  const avg = options.rewards.reduce((a, b) => a + b, 0) / Math.max(1, options.rewards.length);
  writeFileSync(
    join(options.dir, "metadata.json"),
    JSON.stringify({
      env_id: options.envId,
      env_args: options.envArgs ?? {},
      model: options.model,
      base_url: "http://127.0.0.1:1/v1",
      num_examples: Math.ceil(options.rewards.length / 2),
      rollouts_per_example: 2,
      sampling_args: { temperature: 0.7, max_tokens: 256 },
      time: 1.5,
      avg_reward: avg,
      avg_metrics: { correct: avg },
      status: "complete",
      run_id: options.runId,
      ...options.agent,
    }),
  );
  return options.dir;
}
