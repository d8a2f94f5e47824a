// The bash harness works on the coding taskset against a scripted model, through the interception
// server, in the subprocess runtime and the local sandbox: the scripted fix scores 1, no fix 0,
// and evaluate() saves rows whose prompt, completion, trajectory and trace come from the agent.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTaskset, referenceFix } from "@vf-env/coding-tasks";
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import {
  AgentEnv,
  type AgentTask,
  type AgentTrace,
  runAgentRollout,
  startInterceptionServer,
} from "@vf-rl/core/agents";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bashThenAnswer,
  localRuntimeUnavailable,
  SLUGIFY_FIX,
  testRuntimes,
  writeFilesCommand,
} from "../test-support.ts";
import { bashHarness } from "./bash-harness.ts";

const taskset = await loadTaskset({ numEval: 2 });
const [slugify, median] = (await taskset.tasks({ split: "eval" })) as [AgentTask, AgentTask];
const MEDIAN_FIX = writeFilesCommand(await referenceFix("py-median"));
const text = (task: AgentTask) => task.prompt[0]!.content as string;

/** The scripted fix of each of the two tasks, told apart by their prompts. */
const fixBoth = bashThenAnswer((user) =>
  user === text(slugify) ? SLUGIFY_FIX : user === text(median) ? MEDIAN_FIX : null,
);

describe.each(testRuntimes(await localRuntimeUnavailable(slugify)))(
  "the bash harness on coding-tasks, %s runtime",
  (_name, runtimes) => {
    let model: ScriptedServer;
    let client: OpenAIModelClient;
    beforeAll(async () => {
      model = await startScriptedServer({ reply: fixBoth, tokens: true });
      client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
    });
    afterAll(async () => {
      await client.close();
      await model.close();
    });

    async function rollout(task: AgentTask): Promise<{ reward: number | undefined; trace: AgentTrace }> {
      const server = await startInterceptionServer();
      try {
        const done = await runAgentRollout({
          task,
          taskset,
          harness: bashHarness(),
          runtimes: runtimes(),
          server,
          client,
          model: "scripted",
        });
        expect(done.failures).toEqual([]);
        return { reward: done.score?.reward, trace: done.trace };
      } finally {
        await server.close();
      }
    }

    it("scores 1 when the model seds the fix in, and the trace holds both calls", async () => {
      const { reward, trace } = await rollout(slugify);
      expect(reward).toBe(1);
      expect(trace.stop).toBe("agent_completed");
      expect(trace.exitCode).toBe(0);
      expect(trace.calls).toHaveLength(2);
      expect(trace.calls[0]!.tools.map((t) => t.function.name)).toEqual(["bash", "write_file"]);
      expect(trace.calls[0]!.reply!.tool_calls![0]!.function.arguments).toContain("sed -i");
      // The tool result the model read: the repository's own tests, passing after the fix.
      const result = trace.calls[1]!.messages.find((message) => message.role === "tool");
      expect(result?.content).toContain("# pass 2");
      expect(result?.content).toContain("[exit code 0]");
      expect(trace.output).toContain("$ sed -i");
    });

    it("scores 0 when the model answers without fixing anything", async () => {
      const unfixable = { ...slugify, prompt: [{ role: "user" as const, content: "Fix the bug, please." }] };
      const { reward, trace } = await rollout(unfixable);
      expect(reward).toBe(0);
      expect(trace.calls).toHaveLength(1);
      expect(trace.calls[0]!.reply!.content).toBe("I cannot fix this.");
    });

    it("evaluates both tasks as an environment and saves rows carrying the trace", async () => {
      const outputDir = await mkdtemp(join(tmpdir(), "vf-bash-harness-"));
      const env = new AgentEnv({ taskset, harness: bashHarness(), runtimes: runtimes() });
      try {
        const result = await evaluate(env, {
          clients: client,
          model: "scripted",
          numExamples: 2,
          rolloutsPerExample: 2,
          save: { outputDir },
        });
        expect(result.records.map((r) => [r.task, r.reward])).toEqual([
          ["js-slugify", 1],
          ["js-slugify", 1],
          ["py-median", 1],
          ["py-median", 1],
        ]);
        const [record] = result.records;
        expect(record!.prompt.map((m) => m.role)).toEqual(["system", "user"]);
        expect(record!.completion.map((m) => m.role)).toEqual(["assistant", "tool", "assistant"]);
        expect(record!.stop_condition).toBe("agent_completed");
        expect(record!.error).toBeNull();
        expect(record!.metrics).toMatchObject({ checks_passed: 1, num_turns: 2 });
        // Per-turn tokens, for training, from the model's token ids.
        expect(record!.trajectory).toHaveLength(2);
        expect(record!.trajectory[0]!.tokens!.completion_ids.length).toBeGreaterThan(0);
        expect(record!.token_usage!.output_tokens).toBeGreaterThan(0);
        const [runs] = await readdir(join(outputDir, "evals"));
        const [run] = await readdir(join(outputDir, "evals", runs!));
        const lines = (await readFile(join(outputDir, "evals", runs!, run!, "results.jsonl"), "utf8"))
          .trim()
          .split("\n");
        expect(lines).toHaveLength(4);
        const row = JSON.parse(lines[0]!);
        expect(row.trace.calls).toHaveLength(2);
        expect(row.trace.stop).toBe("agent_completed");
        expect(row.trace.nodes.length).toBeGreaterThanOrEqual(5);
        expect(row.checks_passed).toBe(1);
      } finally {
        await env.teardown();
        await rm(outputDir, { recursive: true, force: true });
      }
    });
  },
);
