// vf eval runs agents, through the real vf binary against a scripted model: the coding taskset with
// the bash harness (in the local sandbox where this machine can confine, else plain subprocesses)
// saves a run whose rows carry the agent's trace; an environment run as a taskset with its own chat
// loop scores what vf eval gives it; a config names the taskset and harness in verifiers v1's tables.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localRuntime } from "@vf-rl/agents";
import { AgentTask } from "@vf-rl/core/agents";
import { type ReplyFn, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** js-slugify's fix, sed in the working folder. */
const SLUGIFY_FIX = `sed -i 's#\\.replace(/\\[^a-z0-9\\]+/g, "-");#.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");#' src/slugify.js`;

/** Fixes the slug bug with a bash call, answers anything else at once. */
const fixesSlugs: ReplyFn = (request) => {
  if (request.messages.some((message) => message.role === "tool")) return "Done.";
  const asked = JSON.stringify(request.messages);
  if (!asked.includes("stray dashes")) return "I cannot fix this.";
  return { type: "message", toolCalls: [{ name: "bash", arguments: { command: SLUGIFY_FIX } }] };
};

/** The local sandbox where it runs here, else the subprocess runtime (named in the test's output). */
async function runtime(): Promise<string> {
  try {
    const task = AgentTask.parse({ id: "probe", exampleId: 0, prompt: [] });
    await (await localRuntime().create(task, { interceptionUrl: "http://127.0.0.1:9" })).close();
    return "local";
  } catch (error) {
    console.warn(`vf eval's agents run in the subprocess runtime here: ${String(error)}`);
    return "subprocess";
  }
}

let dir: string;
let model: ScriptedServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-eval-agents-"));
  model = await startScriptedServer({ reply: fixesSlugs });
});
afterAll(async () => {
  await model.close();
  await rm(dir, { recursive: true, force: true });
});

/** The rows of a run folder's results.jsonl (written as groups finish), by example and rollout. */
// biome-ignore lint/suspicious/noExplicitAny: rows are JSON whose fields the assertions read
async function rows(runDir: string): Promise<Array<Record<string, any>>> {
  const text = await readFile(join(runDir, "results.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .sort((a, b) => a.example_id - b.example_id || a.rollout_index - b.rollout_index);
}

describe("vf eval with agents", () => {
  it("runs the coding taskset with the bash harness and saves rows carrying the trace", async () => {
    const where = await runtime();
    const run = await runVf([
      "eval",
      "coding-tasks",
      "--harness",
      "bash",
      "--runtime",
      where,
      "-m",
      "scripted",
      "-b",
      model.url,
      "-n",
      "2",
      "-r",
      "1",
      "-s",
      "-o",
      dir,
      "--json",
    ]);
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ env_id: "coding-tasks", num_examples: 2, rollouts_per_example: 1 });
    // js-slugify is fixed; py-median, which the model does not touch, is not.
    expect(summary.avg_reward).toBe(0.5);
    const [fixed, untouched] = await rows(summary.run_dir);
    expect(fixed).toMatchObject({
      task: "js-slugify",
      reward: 1,
      checks_passed: 1,
      stop_condition: "agent_completed",
    });
    expect(fixed!.trace.calls).toHaveLength(2);
    expect(fixed!.trace.calls[0].reply.tool_calls[0].function.name).toBe("bash");
    expect(fixed!.trace.exitCode).toBe(0);
    expect(fixed!.completion.map((m: { role: string }) => m.role)).toEqual([
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(fixed!.trajectory).toHaveLength(2);
    expect(untouched).toMatchObject({ task: "py-median", reward: 0 });
    expect(untouched!.trace.calls).toHaveLength(1);
    // vf view reads the run like any other.
    const viewed = await runVf(["view", "--json", summary.run_dir]);
    expect(viewed.code).toBe(0);
    expect(JSON.parse(viewed.stdout)[0]).toMatchObject({ env_id: "coding-tasks", avg_reward: 0.5 });
  });

  it("evaluates Claude Code on the coding taskset with one command, against the model vf is given", async () => {
    // Claude Code's Bash tool writes 6 in answer.txt whatever the task: right for answer-js-logs only.
    const claude = await startScriptedServer({
      reply: (request) => {
        if (request.messages.at(-1)?.role === "tool") return "Done.";
        if (!request.tools?.some((tool) => tool.function.name === "Bash")) return "ok";
        const command = { command: "echo 6 > answer.txt", description: "Write the answer" };
        return { type: "message", content: "", toolCalls: [{ name: "Bash", arguments: command }] };
      },
    });
    try {
      const where = await runtime();
      const run = await runVf(
        ["eval", "coding-tasks", "--harness", "claude-code", "--runtime", where, "-m", "scripted"].concat([
          "-b",
          claude.url,
          "-n",
          "5",
          "-r",
          "1",
          "-s",
          "-o",
          dir,
          "--json",
        ]),
        // The CLI is installed once into the cache the harness tests share.
        {
          env: { VF_HARNESS_CACHE: process.env.VF_HARNESS_CACHE ?? join(tmpdir(), "vf-harness-cache") },
          timeoutSeconds: 900,
        },
      );
      expect(run.stderr).not.toMatch(/^error:/m);
      expect(run.code).toBe(0);
      const summary = JSON.parse(run.stdout);
      expect(summary).toMatchObject({ env_id: "coding-tasks", num_examples: 5, avg_reward: 0.2 });
      const right = (await rows(summary.run_dir)).filter((row) => row.reward === 1);
      expect(right.map((row) => row.task)).toEqual(["answer-js-logs"]);
      // Claude Code spoke Anthropic Messages to the interception server; the model was called over chat.
      const asked = right[0]!.trace.calls.filter(
        (call: { api: string }) => call.api === "anthropic_messages",
      );
      expect(asked.length).toBeGreaterThanOrEqual(2);
    } finally {
      await claude.close();
    }
  }, 1_200_000);

  it("runs an environment as a taskset with its own chat loop, scoring what vf eval scores", async () => {
    const reverser = await startScriptedServer({
      reply: (request) => {
        const text = String(request.messages.at(-1)!.content);
        return `<reversed_text>${Array.from(text.slice(0, 12)).reverse().join("")}</reversed_text>`;
      },
    });
    try {
      const flags = ["-m", "scripted", "-b", reverser.url, "-n", "3", "-r", "1", "-s", "-o", dir, "--json"];
      const direct = await runVf(["eval", "reverse-text", ...flags]);
      const asTaskset = await runVf([
        "eval",
        "reverse-text",
        "--harness",
        "chat",
        "--runtime",
        "subprocess",
        ...flags,
      ]);
      expect(direct.code).toBe(0);
      expect(asTaskset.stderr).not.toMatch(/^error:/m);
      expect(asTaskset.code).toBe(0);
      const rewards = async (stdout: string) =>
        (await rows(JSON.parse(stdout).run_dir)).map((row) => [row.example_id, row.reward]);
      const expected = await rewards(direct.stdout);
      expect(expected.some(([, reward]) => reward > 0 && reward < 1)).toBe(true);
      expect(await rewards(asTaskset.stdout)).toEqual(expected);
      expect((await rows(JSON.parse(asTaskset.stdout).run_dir))[0]!.trace.calls).toHaveLength(1);
    } finally {
      await reverser.close();
    }
  });

  it("keeps each harness's runs apart: the folder and metadata name it, and -R resumes only its own", async () => {
    const out = join(dir, "harnesses");
    const flags = ["-m", "scripted", "-b", model.url, "-r", "1", "-s", "-o", out, "--json"];
    const reverseText = (...more: string[]) => runVf(["eval", "reverse-text", ...more, ...flags]);
    const chat = ["--harness", "chat", "--runtime", "subprocess"];
    const first = await reverseText(...chat, "-n", "1");
    expect(first.stderr).not.toMatch(/^error:/m);
    const chatRun = JSON.parse(first.stdout);
    expect(chatRun.run_dir).toMatch(/\/evals\/reverse-text--scripted--chat\/[0-9a-f]{8}$/);
    const saved = JSON.parse(await readFile(join(chatRun.run_dir, "metadata.json"), "utf8"));
    expect(saved).toMatchObject({ env_id: "reverse-text", harness: "chat", runtime: "subprocess" });

    // Two examples now: the chat run is unfinished, but it is not the bash harness's to continue.
    const bash = ["--harness", "bash", "--runtime", "subprocess", "-n", "2"];
    const resumed = await reverseText(...bash, "-R");
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("no incomplete run with these settings to resume: starting a new run");
    const bashRun = JSON.parse(resumed.stdout);
    expect(bashRun.run_dir).toMatch(/\/evals\/reverse-text--scripted--bash\/[0-9a-f]{8}$/);
    expect(bashRun).toMatchObject({ harness: "bash", runtime: "subprocess" });
    // Named, it is refused, saying which setting differs.
    const named = await reverseText(...bash, "-R", chatRun.run_dir);
    expect(named.code).not.toBe(0);
    expect(named.stderr).toContain('harness (saved "chat", now "bash")');

    // A run of the environment itself keeps verifiers' folder and never continues the chat run.
    const ownRun = JSON.parse((await reverseText("-n", "2", "-R")).stdout);
    expect(ownRun.run_dir).toMatch(/\/evals\/reverse-text--scripted\/[0-9a-f]{8}$/);
    expect(ownRun).not.toHaveProperty("harness");
    // The chat harness continues its own.
    const again = await reverseText(...chat, "-n", "2", "-R");
    expect(JSON.parse(again.stdout).run_dir).toBe(chatRun.run_dir);
    expect(await rows(chatRun.run_dir)).toHaveLength(2);
  });

  it("reads the taskset and harness from a config's [eval.env.taskset] and [eval.env.harness] tables", async () => {
    const config = join(dir, "agents.toml");
    await writeFile(
      config,
      [
        'model = "scripted"',
        `api_base_url = "${model.url}"`,
        "num_examples = 1",
        "rollouts_per_example = 1",
        "[[eval]]",
        "[eval.env.taskset]",
        'id = "coding-tasks"',
        'languages = ["javascript"]',
        "[eval.env.harness]",
        'id = "bash"',
        "[eval.env.runtime]",
        'type = "subprocess"',
      ].join("\n"),
    );
    const run = await runVf(["eval", config, "--json"]);
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      env_id: "coding-tasks",
      env_args: { languages: ["javascript"] },
      avg_reward: 1,
    });
  });

  it("refuses --runtime for an environment that runs without a harness, saying what to add", async () => {
    const run = await runVf([
      "eval",
      "reverse-text",
      "--runtime",
      "local",
      "-m",
      "scripted",
      "-b",
      model.url,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("add --harness chat (or bash) to run it as a taskset, or drop --runtime");
  });
});
