// A harness of your own, in a few lines: any object with an id, the API it speaks and `run`. It is
// pointed at the interception server (`model`: its URL, the rollout's secret, the model's name), so
// its calls land in the rollout's trace; it works in the task's runtime. This one asks the model
// once and writes the answer to answer.txt, which is how coding-tasks' question tasks are answered.
// one-shot-harness.test.ts evaluates it on coding-tasks against a scripted model.

import { loadTaskset } from "@vf-env/coding-tasks";
import { subprocessRuntime } from "@vf-rl/agents";
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import { AgentEnv, type Harness } from "@vf-rl/core/agents";
import OpenAI from "openai";

export const oneShotHarness: Harness = {
  id: "one-shot",
  api: "openai_chat_completions",
  async run({ task, model, runtime, signal }) {
    const client = new OpenAI({ baseURL: model.baseUrl, apiKey: model.apiKey });
    const messages = task.prompt as OpenAI.ChatCompletionMessageParam[];
    const reply = await client.chat.completions.create({ model: model.name, messages }, { signal });
    await runtime.writeFile("answer.txt", reply.choices[0]?.message.content ?? "");
    return { exitCode: 0, output: "wrote answer.txt" };
  },
};

/** Evaluates the harness on coding-tasks' JavaScript eval tasks with the model at `modelUrl`. */
export async function evaluateOneShot(modelUrl: string) {
  const env = new AgentEnv({
    taskset: await loadTaskset({ languages: ["javascript"] }),
    harness: oneShotHarness,
    runtimes: subprocessRuntime({ quiet: true }),
  });
  const client = new OpenAIModelClient({ baseUrl: modelUrl, apiKey: "EMPTY" });
  try {
    return await evaluate(env, { clients: client, model: "scripted", numExamples: 3 });
  } finally {
    await env.teardown();
    await client.close();
  }
}
