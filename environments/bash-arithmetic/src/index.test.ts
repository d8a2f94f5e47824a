// The taskset through the real bash harness (subprocess runtime, the interception server) against
// a scripted model: running the expression in bash and boxing what it printed scores 1, a number
// from the head 0; and the warm start's scripted trace is, token for token, what the harness sends.
import { answerText, drawProblems } from "@vf-env/tool-arithmetic";
import { bashHarness, subprocessRuntime } from "@vf-rl/agents";
import { OpenAIModelClient } from "@vf-rl/core";
import { type AgentTask, runAgentRollout, startInterceptionServer } from "@vf-rl/core/agents";
import { EnvArgsError } from "@vf-rl/core/errors";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { type ChatMessageInput, renderChat, withToolsSection } from "@vf-rl/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callingConversation,
  commandFor,
  HARNESS_OPTIONS,
  loadTaskset,
  warmStartConversations,
} from "./index.ts";

const taskset = await loadTaskset({ numTrain: 4, numEval: 2 });
const [task] = (await taskset.tasks({ split: "eval" })) as [AgentTask];
const problem = drawProblems({ seed: 0, numTrain: 0, numEval: 1 }).eval[0]!;

/** A model that runs the question's expression (or not), then boxes the tool's first line. */
function scripted(runs: boolean) {
  return startScriptedServer({
    tokens: true,
    reply: (request) => {
      const tool = request.messages.findLast((message) => message.role === "tool");
      if (tool) return answerText(String(tool.content).split("\n")[0]!);
      if (!runs) return answerText("12345");
      return { type: "message", toolCalls: [{ name: "bash", arguments: { command: commandFor(problem) } }] };
    },
  });
}

/** The tokens the engine's model reads for a conversation offered the bash tool. */
function tokensOf(messages: readonly ChatMessageInput[], tools: Parameters<typeof withToolsSection>[1]) {
  return renderChat(withToolsSection(messages, tools));
}

describe("bash-arithmetic through the bash harness", () => {
  let model: ScriptedServer;
  let client: OpenAIModelClient;
  beforeAll(async () => {
    model = await scripted(true);
    client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
  });
  afterAll(async () => {
    await client.close();
    await model.close();
  });

  async function rollout(on: OpenAIModelClient) {
    const server = await startInterceptionServer();
    try {
      return await runAgentRollout({
        task,
        taskset,
        harness: bashHarness(HARNESS_OPTIONS),
        runtimes: subprocessRuntime({ quiet: true }),
        server,
        client: on,
        model: "scripted",
      });
    } finally {
      await server.close();
    }
  }

  it("scores 1 when the model runs the expression and boxes what bash printed", async () => {
    const done = await rollout(client);
    expect(done.failures).toEqual([]);
    expect(done.score).toEqual({ reward: 1, metrics: { bash_calls: 1, num_turns: 2 } });
    const result = done.trace.calls[1]!.messages.at(-1)!;
    expect(result).toMatchObject({ role: "tool", content: `${problem.answer}\n[exit code 0]` });
  });

  it("scores 0 when the model answers from its head", async () => {
    const guesser = await scripted(false);
    const guessing = new OpenAIModelClient({ baseUrl: guesser.url, apiKey: "EMPTY", maxRetries: 0 });
    try {
      const done = await rollout(guessing);
      expect(done.score).toEqual({ reward: 0, metrics: { bash_calls: 0, num_turns: 1 } });
    } finally {
      await guessing.close();
      await guesser.close();
    }
  });

  it("warm-starts on the very tokens the harness sends the model", async () => {
    const done = await rollout(client);
    const last = done.trace.calls[1]!;
    const sent = tokensOf([...last.messages, last.reply!] as ChatMessageInput[], last.tools);
    const scriptedTrace = callingConversation(task.prompt, problem);
    expect(tokensOf(scriptedTrace.messages as ChatMessageInput[], [...scriptedTrace.tools])).toEqual(sent);
  });
});

describe("the taskset", () => {
  it("asks tool-arithmetic's problems, split apart, and refuses bad arguments by name", async () => {
    const tasks = await taskset.tasks({ split: "train" });
    expect(tasks.map((t) => t.id)).toEqual(["train-0", "train-1", "train-2", "train-3"]);
    expect(task).toMatchObject({ id: "eval-0", answer: problem.answer, limits: { maxTurns: 3 } });
    expect(task.prompt[1]).toEqual({ role: "user", content: problem.question });
    await expect(loadTaskset({ numTrian: 3 })).rejects.toThrow(EnvArgsError);
  });

  it("warm-starts with a quarter of the conversations running the command", () => {
    const conversations = warmStartConversations({ count: 8 });
    expect(conversations.map((c) => c.messages.length)).toEqual([3, 3, 3, 5, 3, 3, 3, 5]);
  });
});
