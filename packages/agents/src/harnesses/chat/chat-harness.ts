/**
 * The chat harness: the plain chat loop vf's environments run, as an agent. The model gets the
 * task's prompt and the tools of the task's MCP servers, if any; each tool call goes to its server
 * and the result back to the model, until it answers without a tool call. It runs in vf's own
 * process (it executes nothing, so it needs no runtime of its own) and talks chat completions to
 * the interception server like any other harness. It is ToolEnv's loop: the same tool errors,
 * prefixes and timeouts as an environment's `mcpServers`.
 *
 * An environment run as a taskset (`environmentTaskset`) brings its own `chat` harness, its own turn
 * loop, which also runs its tools and replies; this one is for tasksets.
 *
 * @example
 * const env = new AgentEnv({ taskset, harness: chatHarness(), runtimes: subprocessRuntime() });
 */
import { Dataset, OpenAIModelClient, ToolEnv } from "@vf-rl/core";
import type { Harness, HarnessContext, HarnessResult } from "@vf-rl/core/agents";

/** The chat harness; see the file comment. */
export function chatHarness(): Harness {
  return {
    id: "chat",
    api: "openai_chat_completions",
    async run({ task, model, mcpUrls, signal }: HarnessContext): Promise<HarnessResult> {
      const loop = new ToolEnv({
        evalDataset: Dataset.fromRows([{ prompt: task.prompt, answer: task.answer, info: task.info }]),
        mcpServers: mcpUrls.map((url, i) => ({ type: "http" as const, name: `mcp${i + 1}`, url })),
        // The interception server holds the task's limits.
        maxTurns: -1,
      });
      const client = new OpenAIModelClient({ baseUrl: model.baseUrl, apiKey: model.apiKey, maxRetries: 0 });
      try {
        const { inputs } = await loop.inputs({ split: "eval" });
        const state = await loop.rollout(inputs[0]!, { client, model: model.name, signal });
        const last = state.completion.at(-1);
        if (state.error) return { exitCode: 1, output: `${state.error.error}: ${state.error.message}` };
        return { exitCode: 0, output: last?.role === "assistant" ? String(last.content ?? "") : "" };
      } finally {
        await client.close();
        await loop.teardown();
      }
    },
  };
}
