// Codex, installed from npm by the harness's prepare, driven offline by the scripted model through
// the interception server over OpenAI Responses: its exec_command tool writes answer.txt. Its
// freeform apply_patch tool, which the model sees as a function of one text argument, writes it too.
import { startInterceptionServer } from "@vf-rl/core/agents";
import { createModelClient } from "@vf-rl/core/client";
import { byPrompt, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { subprocessRuntime } from "../../subprocess/subprocess-runtime.ts";
import { answerTask, describeCliHarness, TEST_CACHE_DIR } from "../npm-cli/cli-harness.contract.ts";
import { codexHarness } from "./codex-harness.ts";

describeCliHarness({
  harness: codexHarness(),
  sandboxUid: 64302,
  mcp: true,
  writeAnswer: { name: "exec_command", arguments: { cmd: "echo 42 > answer.txt" } },
});

describe("the codex harness's freeform tools", () => {
  it("applies a patch with apply_patch, which the model calls as a function of its text", async () => {
    const harness = codexHarness();
    await harness.prepare?.({ cacheDir: TEST_CACHE_DIR });
    const patch = "*** Begin Patch\n*** Add File: answer.txt\n+42\n*** End Patch\n";
    const model = await startScriptedServer({
      reply: byPrompt((messages, request) => {
        if (messages.at(-1)?.role === "tool") return { type: "message", content: "Patched." };
        if (!request.tools?.some((tool) => tool.function.name === "apply_patch")) return "ok";
        return {
          type: "message",
          content: "",
          toolCalls: [{ name: "apply_patch", arguments: { input: patch } }],
        };
      }),
    });
    const client = createModelClient({
      type: "openai_chat_completions",
      baseUrl: model.url,
      apiKey: "EMPTY",
    });
    const server = await startInterceptionServer();
    const task = answerTask();
    const runtime = await subprocessRuntime({ quiet: true }).create(task, { interceptionUrl: server.url });
    try {
      // Codex offers apply_patch as a freeform (custom) tool to the models its catalog says take one.
      const registered = server.register({ client, model: "scripted", servedModel: "gpt-5.5" });
      const result = await harness.run({
        task,
        runtime,
        model: registered.endpoint(harness.api),
        mcpUrls: [],
        signal: new AbortController().signal,
      });
      const trace = await registered.end({ exitCode: result.exitCode, output: result.output });
      expect(result.exitCode, result.output).toBe(0);
      expect((await runtime.readFile("answer.txt"))?.trim(), result.output).toBe("42");
      const applyPatch = trace.calls[0]!.tools.find((tool) => tool.function.name === "apply_patch");
      expect(applyPatch?.function.parameters).toMatchObject({ required: ["input"] });
      expect(trace.calls.at(-1)!.reply?.content).toBe("Patched.");
      // Its hosted web search has no function form: left out, and the trace says so.
      expect(trace.calls[0]!.dropped).toContainEqual(
        expect.stringMatching(/^tool "web_search" \(web_search\)/),
      );
    } finally {
      await runtime.close();
      await server.close();
      await client.close();
      await model.close();
    }
  });
});
