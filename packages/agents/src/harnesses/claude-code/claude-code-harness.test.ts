// Claude Code, installed from npm by the harness's prepare, driven offline by the scripted model
// through the interception server over Anthropic Messages: its Bash tool writes answer.txt. For a
// model it does not know it sends mid-conversation system turns, which reach the model in place.
import { contentText } from "@vf-rl/core";
import { startInterceptionServer } from "@vf-rl/core/agents";
import { createModelClient } from "@vf-rl/core/client";
import { byPrompt, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { subprocessRuntime } from "../../subprocess/subprocess-runtime.ts";
import { answerTask, describeCliHarness, TEST_CACHE_DIR } from "../npm-cli/cli-harness.contract.ts";
import { claudeCodeHarness } from "./claude-code-harness.ts";

describeCliHarness({
  harness: claudeCodeHarness(),
  sandboxUid: 64301,
  mcp: true,
  writeAnswer: {
    name: "Bash",
    arguments: { command: "echo 42 > answer.txt", description: "Write the answer" },
  },
});

describe("the claude-code harness's system turns", () => {
  it("passes on the mid-conversation system turn Claude Code sends a model it does not know, in place", async () => {
    const harness = claudeCodeHarness();
    await harness.prepare?.({ cacheDir: TEST_CACHE_DIR });
    const model = await startScriptedServer({ reply: byPrompt(() => "ok") });
    const client = createModelClient({
      type: "openai_chat_completions",
      baseUrl: model.url,
      apiKey: "EMPTY",
    });
    const server = await startInterceptionServer();
    const task = answerTask();
    const runtime = await subprocessRuntime({ quiet: true }).create(task, { interceptionUrl: server.url });
    try {
      const registered = server.register({ client, model: "scripted", servedModel: "vf-test/unknown-1" });
      const result = await harness.run({
        task,
        runtime,
        model: registered.endpoint(harness.api),
        mcpUrls: [],
        signal: new AbortController().signal,
      });
      const trace = await registered.end({ exitCode: result.exitCode, output: result.output });
      expect(result.exitCode, result.output).toBe(0);
      // Its environment (working folder, platform, ...) comes after the request, as a system turn.
      const messages = trace.calls[0]!.messages;
      const request = messages.findIndex((message) => message.role === "user");
      const turn = messages.findIndex((message, i) => i > request && message.role === "system");
      expect(turn, JSON.stringify(messages.map((message) => message.role))).toBeGreaterThan(request);
      expect(contentText(messages[turn]!.content)).toContain(runtime.workdir);
      expect(model.requests[0]!.messages.map((message) => message.role)).toEqual(messages.map((m) => m.role));
    } finally {
      await runtime.close();
      await server.close();
      await client.close();
      await model.close();
    }
  });
});
