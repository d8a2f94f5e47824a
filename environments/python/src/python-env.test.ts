// The environment's lifecycle around the sandbox: the hidden folder argument, clean-up on every way
// a rollout ends (done, timed out, cancelled), and refusal on a machine that cannot confine code.
import { chmod, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CancelledError, contentText, Dataset, MathRubric, OpenAIModelClient } from "@vf-rl/core";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PythonEnv } from "./python-env.ts";
import { PythonCodeError, toolAnswer } from "./python-tool.ts";
import { SandboxOptions, type SandboxOptionsInput } from "./sandbox/sandbox-options.ts";
import { sandboxProcesses } from "./sandbox/test-support.ts";

let scratch: string;
let server: ScriptedServer;
/** The code of the model's calls, one per turn; then it answers. */
let calls: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "vf-python-env-"));
  await chmod(scratch, 0o755);
  server = await startScriptedServer({
    reply: (request) => {
      const turn = request.messages.filter((m) => m.role === "assistant").length;
      const code = calls[turn];
      if (code === undefined) return "The answer is \\boxed{12}.";
      return { type: "message", content: null, toolCalls: [{ name: "python", arguments: { code } }] };
    },
  });
});
afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

function makeEnv(sandbox: SandboxOptionsInput = {}) {
  return new PythonEnv({
    evalDataset: Dataset.fromRows([{ question: "What is 3 * 4?", answer: "12" }]),
    rubric: new MathRubric(),
    sandbox: SandboxOptions.parse({ tempDir: scratch, ...sandbox }),
  });
}

async function start(env: PythonEnv, code: string[], signal?: AbortSignal) {
  calls = code;
  const { inputs } = await env.inputs({ split: "eval" });
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
  return env.rollout(inputs[0]!, { client, model: "scripted", signal });
}

async function leftovers() {
  return { folders: await readdir(scratch), processes: await sandboxProcesses(scratch) };
}

describe("PythonEnv", () => {
  it("offers the model a python tool whose only argument is the code", () => {
    const [definition] = makeEnv().toolDefs();
    expect(definition?.function.name).toBe("python");
    expect(definition?.function.parameters).toMatchObject({ required: ["code"] });
    expect(Object.keys(definition?.function.parameters.properties as object)).toEqual(["code"]);
  });

  it("runs the model's code in its own folder and cleans up when the rollout ends", async () => {
    const env = makeEnv();
    const state = await start(env, ["import os\nos.getcwd(), 3 * 4"]);
    await env.score([state], { independent: true });
    expect(state.completion.find((m) => m.role === "tool")?.content).toBe("('/sandbox', 12)\n");
    expect(state.reward).toBe(1);
    expect(state.metrics).toMatchObject({ python_calls: 1, total_tool_calls: 1 });
    expect(await leftovers()).toEqual({ folders: [], processes: [] });
  });

  it("cleans up when the rollout times out in the middle of a call", async () => {
    const env = makeEnv({ timeoutSeconds: 60 });
    env.configure({ timeout_seconds: 1 });
    const state = await start(env, ["import time\ntime.sleep(600)"]);
    expect(state.timedOut).toBe(true);
    expect(state.stopCondition).toBe("timeout_reached");
    expect(await leftovers()).toEqual({ folders: [], processes: [] });
  });

  it("cleans up when the rollout is cancelled in the middle of a call", async () => {
    const env = makeEnv({ timeoutSeconds: 60 });
    const abort = new AbortController();
    const running = start(env, ["import time\ntime.sleep(600)"], abort.signal);
    // Cancel once the sandbox is up and the call is under way.
    for (let i = 0; i < 200 && (await sandboxProcesses(scratch)).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await sandboxProcesses(scratch)).length).toBeGreaterThan(0);
    abort.abort();
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    expect(await leftovers()).toEqual({ folders: [], processes: [] });
  });

  it("ends the rollout with a SandboxError, running nothing, where it cannot confine code", async () => {
    const env = makeEnv({ unshare: "/nonexistent/unshare" });
    const state = await start(env, ["print('must not run')"]);
    expect(state.stopCondition).toBe("has_error");
    expect(state.error).toMatchObject({
      error: "SandboxError",
      message: expect.stringMatching(/^unshare was not found at \/nonexistent\/unshare: install util-linux/),
    });
    expect(state.retryable).toBe(true);
    expect(state.completion.some((m) => m.role === "tool")).toBe(false);
    expect(await leftovers()).toEqual({ folders: [], processes: [] });
  });
});

describe("toolAnswer", () => {
  it("shows the output, cut to the limit with a note", () => {
    expect(toolAnswer({ type: "ok", output: "", outputBytes: 0, ms: 1 }, 10)).toBe("(no output)");
    expect(toolAnswer({ type: "ok", output: "x".repeat(30), outputBytes: 30, ms: 1 }, 10)).toBe(
      `${"x".repeat(10)}\n[output cut: 30 bytes in all, the first 10 characters shown]`,
    );
  });

  it("turns a failure into a PythonCodeError that leads with the limit hit", () => {
    const fail = () =>
      toolAnswer(
        {
          type: "error",
          output: "partial\n",
          outputBytes: 8,
          error: "MemoryError",
          traceback: "Traceback ...\nMemoryError",
          limit: "memory limit reached: each process in the sandbox may use 512 MB of address space",
          ms: 3,
        },
        100,
      );
    expect(fail).toThrow(PythonCodeError);
    expect(fail).toThrow(
      "memory limit reached: each process in the sandbox may use 512 MB of address space\nTraceback ...\nMemoryError\nOutput before the error:\npartial\n",
    );
  });
});

describe("a sandboxed call's text", () => {
  it("reaches the model as a tool message", async () => {
    const env = makeEnv();
    const state = await start(env, ["1 / 0", "print('next')"]);
    const tools = state.completion.filter((m) => m.role === "tool").map((m) => contentText(m.content));
    expect(tools[0]).toMatch(/^Error: python failed: Traceback .*ZeroDivisionError: division by zero$/s);
    expect(tools[1]).toBe("next\n");
  });
});
