/**
 * Real agent runs for `vf view`'s tests, saved as `vf eval` saves them: the coding taskset worked on
 * by the bash harness in the subprocess runtime, against a scripted model. Three kinds:
 *
 * - `evalBashRun`: `vf eval coding-tasks --harness bash` through the real binary; the model fixes
 *   js-slugify with one bash call and leaves py-median alone (one branch each).
 * - `evalRunawayRun`: the same with a model that calls `ls` forever, ended by the task's turn limit
 *   (`-a '{"maxTurns": 3}'`): the trace records why.
 * - `evalOutlivingRun`: a model whose command outlives the task's time limit; vf kills the agent.
 * - `evalBashRun` against `startShortContextModel`: js-slugify's second call fails (HTTP 400).
 * - `evaluateBranchingRun`: a harness that first asks a planning subagent (its own conversation),
 *   then runs the bash agent twice (a retried attempt, branching after the system prompt and task):
 *   three branches, the second attempt's the main one. Run with core's `evaluate`, as a harness of one's own is
 *   (vf eval names only the shipped harnesses).
 * - `withheldResultRollout`: the bash agent reads a task's hidden tests and the host's tool-result
 *   hook withholds what it read. vf eval sets no hook, so this one trace is the interception server's
 *   own, on a row made for it.
 * - `retriedCallRollout`: an agent that sends its second call twice (a retry after a dropped
 *   answer), through the interception server: two branches that share the first reply; and
 *   `manyConversationsRollout`, one that starts a dozen conversations. Also on rows made for them.
 */
import { bashHarness, subprocessRuntime } from "@vf-rl/agents";
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import { AgentEnv, AgentTask, type Harness, startInterceptionServer } from "@vf-rl/core/agents";
import { createModelClient } from "@vf-rl/core/client";
import { findEnvironment, loadTaskset } from "@vf-rl/core/loading";
import { RolloutRecord } from "@vf-rl/core/results";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";

/** js-slugify's fix, sed in the working folder. */
const SLUGIFY_FIX = `sed -i 's#\\.replace(/\\[^a-z0-9\\]+/g, "-");#.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");#' src/slugify.js`;

/** The planning subagent's system prompt; the model answers it with a plan. */
export const PLANNER_PROMPT = "You are a planner. Say in one line how to fix the bug; do not fix it.";

/** The plan the model gives the planner. */
export const PLAN = "Plan: fix the regex in src/slugify.js, then trim the dashes at both ends.";

/**
 * The scripted model of the fixing runs: plans when asked by the planner, fixes the slug bug with a
 * bash call (with token ids and logprobs, as vLLM returns them), answers anything else at once.
 */
export function startCodingModel(): Promise<ScriptedServer> {
  return startScriptedServer({
    tokens: true,
    reply: (request) => {
      if (request.messages[0]?.content === PLANNER_PROMPT) return PLAN;
      if (request.messages.some((message) => message.role === "tool")) return "Done.";
      if (!JSON.stringify(request.messages).includes("stray dashes")) return "I cannot fix this.";
      return {
        type: "message",
        content: "The slug keeps dashes at its ends; I will fix the regex.",
        toolCalls: [{ name: "bash", arguments: { command: SLUGIFY_FIX } }],
      };
    },
  });
}

/** A model that runs `ls` whatever it sees: only a limit ends it. */
export function startRunawayModel(): Promise<ScriptedServer> {
  return startScriptedServer({
    reply: () => ({ type: "message", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] }),
  });
}

/**
 * A model whose context is too short for js-slugify's second call (an HTTP 400, as vLLM answers):
 * the bash agent's `ls` result never reaches it, and the agent exits.
 */
export function startShortContextModel(): Promise<ScriptedServer> {
  return startScriptedServer({
    reply: (request) => {
      if (!JSON.stringify(request.messages).includes("stray dashes")) return "I cannot fix this.";
      if (!request.messages.some((message) => message.role === "tool")) {
        return { type: "message", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] };
      }
      return { type: "error", status: 400, message: "the maximum context length is 2048 tokens" };
    },
  });
}

/** A model whose only command outlives any task's time: `sleep 30`. */
export function startSleepyModel(): Promise<ScriptedServer> {
  return startScriptedServer({
    reply: () => ({ type: "message", toolCalls: [{ name: "bash", arguments: { command: "sleep 30" } }] }),
  });
}

/** One task ended by a time limit of 2 s, the agent killed mid-command. */
export function evalOutlivingRun(outputDir: string, modelUrl: string): Promise<string> {
  return evalCodingTasks(outputDir, modelUrl, ["-a", '{"timeSeconds": 2}', "-n", "1"]);
}

/** `vf eval coding-tasks --harness bash --runtime subprocess` on two tasks; resolves with its run folder. */
export function evalBashRun(outputDir: string, modelUrl: string): Promise<string> {
  return evalCodingTasks(outputDir, modelUrl, []);
}

/** The same, one task, ended by a limit of 3 model calls. */
export function evalRunawayRun(outputDir: string, modelUrl: string): Promise<string> {
  return evalCodingTasks(outputDir, modelUrl, ["-a", '{"maxTurns": 3}', "-n", "1"]);
}

async function evalCodingTasks(outputDir: string, modelUrl: string, more: string[]): Promise<string> {
  const flags = ["--harness", "bash", "--runtime", "subprocess", "-m", "scripted", "-b", modelUrl];
  const run = await runVf([
    "eval",
    "coding-tasks",
    ...flags,
    "-n",
    "2",
    "-s",
    "-o",
    outputDir,
    "--json",
    ...more,
  ]);
  if (run.code !== 0) throw new Error(`vf eval failed (${run.code}):\n${run.stderr}`);
  return JSON.parse(run.stdout).run_dir;
}

/**
 * Asks a planner (a subagent: a conversation of its own), then runs the bash agent and, as a harness
 * that retries an attempt from scratch would, runs it again: its second attempt starts from the same
 * system prompt and task as the first and branches from there.
 */
const planThenBash: Harness = {
  id: "plan-then-bash",
  api: "openai_chat_completions",
  async run(context) {
    const task = context.task.prompt.filter((message) => message.role === "user");
    const answer = await fetch(`${context.model.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${context.model.apiKey}` },
      body: JSON.stringify({
        model: context.model.name,
        messages: [{ role: "system", content: PLANNER_PROMPT }, ...task],
      }),
      signal: context.signal,
    });
    if (!answer.ok) return { exitCode: 1, output: `the planner's call failed: ${await answer.text()}` };
    const first = await bashHarness().run(context);
    if (first.exitCode !== 0) return first;
    return bashHarness().run(context);
  },
};

/** The branching run, on coding-tasks' first task (js-slugify); resolves with its run folder. */
export async function evaluateBranchingRun(outputDir: string, modelUrl: string): Promise<string> {
  const { taskset } = await loadTaskset(findEnvironment("coding-tasks"), {});
  const env = new AgentEnv({ taskset, harness: planThenBash, runtimes: subprocessRuntime({ quiet: true }) });
  const client = new OpenAIModelClient({ baseUrl: modelUrl, apiKey: "EMPTY" });
  try {
    const result = await evaluate(env, {
      clients: client,
      model: "scripted",
      envId: "coding-tasks",
      numExamples: 1,
      agent: { harness: planThenBash.id, runtime: "subprocess" },
      save: { outputDir },
    });
    if (!result.runDir) throw new Error("the branching run was not saved");
    return result.runDir;
  } finally {
    await env.teardown();
    await client.close?.();
  }
}

/** Why the hook withholds a result. */
export const WITHHELD_REASON = "the hidden tests are the grader's";

/** The bash agent asked to read tests/hidden.test.js, its result withheld by the host's hook. */
export async function withheldResultRollout(): Promise<RolloutRecord> {
  const model = await startScriptedServer({
    reply: (request) =>
      request.messages.some((message) => message.role === "tool")
        ? "I could not read them."
        : {
            type: "message",
            toolCalls: [{ name: "bash", arguments: { command: "cat tests/hidden.test.js" } }],
          },
  });
  const server = await startInterceptionServer();
  const client = createModelClient({ type: "openai_chat_completions", baseUrl: model.url, apiKey: "EMPTY" });
  const task = AgentTask.parse({
    id: "peek",
    exampleId: 0,
    prompt: [{ role: "user", content: "Read the hidden tests." }],
    files: { "tests/hidden.test.js": "assert(answer === 42);\n" },
  });
  const runtime = await subprocessRuntime({ quiet: true }).create(task, { interceptionUrl: server.url });
  try {
    const rollout = server.register({
      client,
      model: "scripted",
      onToolResult: ({ call }) =>
        call?.function.arguments.includes("tests/")
          ? { type: "deny", reason: WITHHELD_REASON }
          : { type: "keep" },
    });
    const result = await bashHarness().run({
      task,
      runtime,
      model: rollout.endpoint("openai_chat_completions"),
      mcpUrls: [],
      signal: new AbortController().signal,
    });
    const trace = await rollout.end({ exitCode: result.exitCode, output: result.output });
    return RolloutRecord.parse({ example_id: 0, prompt: task.prompt, completion: [], reward: 0, trace });
  } finally {
    await runtime.close();
    await server.close();
    await client.close?.();
    await model.close();
  }
}

type Ask = (messages: Array<{ role: string; content: string }>) => Promise<string>;

/**
 * The trace of an agent of a few lines, `agent`, whose chat calls go through the interception
 * server to a model answering "answer N" to its Nth call; on a row made for it.
 */
async function interceptedRollout(agent: (ask: Ask) => Promise<void>): Promise<RolloutRecord> {
  const model = await startScriptedServer({ reply: (_request, index) => `answer ${index + 1}` });
  const server = await startInterceptionServer();
  const client = createModelClient({ type: "openai_chat_completions", baseUrl: model.url, apiKey: "EMPTY" });
  try {
    const rollout = server.register({ client, model: "scripted" });
    const { baseUrl, apiKey } = rollout.endpoint("openai_chat_completions");
    const ask: Ask = async (messages) => {
      const answer = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ model: "scripted", messages }),
      });
      const body = (await answer.json()) as { choices: Array<{ message: { content: string } }> };
      return body.choices[0]!.message.content;
    };
    await agent(ask);
    const trace = await rollout.end({ exitCode: 0, output: "" });
    const prompt = [{ role: "user", content: "(see the trace)" }];
    return RolloutRecord.parse({ example_id: 0, prompt, completion: [], reward: 0, trace });
  } finally {
    await server.close();
    await client.close?.();
    await model.close();
  }
}

/** Asks a question, follows it up, and sends the follow-up again: the retry branches from the first reply. */
export function retriedCallRollout(): Promise<RolloutRecord> {
  return interceptedRollout(async (ask) => {
    const question = [{ role: "user", content: "What is 6 times 7?" }];
    const first = await ask(question);
    const followUp = [...question, { role: "assistant", content: first }, { role: "user", content: "Sure?" }];
    await ask(followUp);
    await ask(followUp);
  });
}

/** `count` questions, each a conversation of its own (as subagents started one after another). */
export function manyConversationsRollout(count: number): Promise<RolloutRecord> {
  return interceptedRollout(async (ask) => {
    for (let i = 1; i <= count; i++) await ask([{ role: "user", content: `question ${i}` }]);
  });
}
