/**
 * What every agent-CLI harness does, as one suite each CLI's test file runs, offline against the
 * real CLI: installed by `prepare` into a shared cache (once; CI has the npm registry), pointed at
 * the interception server, in front of the scripted model server. The scripted model calls the
 * CLI's own tool to write answer.txt, then ends its turn; the file is there, and the trace holds
 * both calls, in the subprocess runtime and in the local sandbox (the cache folder shown read-only).
 * The task's MCP servers' tools reach the model under the CLI's own names, and their results come
 * back. Under strace, the CLI connects to nothing but the interception server. A cancelled rollout
 * ends the CLI and everything it started.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile, readlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentText, type Messages, tool, UserError } from "@vf-rl/core";
import {
  AgentTask,
  type ExecOptions,
  type Runtime,
  type RuntimeFactory,
  startInterceptionServer,
  taskToolSession,
} from "@vf-rl/core/agents";
import { createModelClient } from "@vf-rl/core/client";
import { byPrompt, type ScriptedReply, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { localRuntime } from "../../local/local-runtime.ts";
import { subprocessRuntime } from "../../subprocess/subprocess-runtime.ts";
import type { NpmCliHarness } from "./npm-cli-harness.ts";

type InterceptionServer = Awaited<ReturnType<typeof startInterceptionServer>>;

/** What the suite needs of a CLI harness. */
export interface CliHarnessUnderTest {
  harness: NpmCliHarness;
  /** The CLI's tool call that runs (or writes) `echo 42 > answer.txt` in its working folder. */
  writeAnswer: { name: string; arguments: Record<string, unknown> };
  /** Why the suite cannot run here; it runs when undefined. */
  skip?: string | undefined;
  /** Whether the CLI has an MCP client (else a task with MCP servers is refused). */
  mcp: boolean;
  /** Why the MCP test cannot pass yet; it runs when undefined. */
  mcpSkip?: string | undefined;
  /** Why the CLI cannot run in the local sandbox runtime; that test runs when undefined. */
  localSkip?: string | undefined;
  /** The user the local sandbox runs as (vf as root), one per test file. */
  sandboxUid: number;
}

/**
 * Where the tests install the CLIs: shared by every test file and run (an install is hundreds of
 * MB), and readable by every user, so that a local sandbox can show it. `VF_HARNESS_CACHE` moves it.
 */
export const TEST_CACHE_DIR = process.env.VF_HARNESS_CACHE ?? join(tmpdir(), "vf-harness-cache");

/** The model name the CLIs are told; with a slash, as served models' names often have. */
const MODEL = "vf-test/scripted-1";
/** Installing a CLI (hundreds of MB from npm) may take minutes on a busy machine. */
const PREPARE_MS = 600_000;

/** The task: write 42 into answer.txt. */
export function answerTask(extra: Partial<AgentTask> = {}): AgentTask {
  return AgentTask.parse({
    id: "write-answer",
    exampleId: 0,
    prompt: [
      { role: "system", content: "Answer in few words." },
      { role: "user", content: "Write the number 42 into answer.txt." },
    ],
    limits: { timeSeconds: 300 },
    ...extra,
  });
}

/**
 * The scripted model: the CLI's main loop (the request offering its tool) gets the tool call, the
 * request carrying the tool's result gets the final answer, and any other call the CLI makes on
 * its own (a title, a summary) a short text.
 */
function scriptFor(tool: CliHarnessUnderTest["writeAnswer"]) {
  return byPrompt((messages: Messages, request): ScriptedReply => {
    const last = messages.at(-1);
    if (last?.role === "tool") return { type: "message", content: "Done: answer.txt holds 42." };
    if (request.tools?.some((t) => t.function.name === tool.name)) {
      return { type: "message", content: "", toolCalls: [{ id: "call_write_1", ...tool }] };
    }
    return { type: "message", content: "ok" };
  });
}

/** Runs the suite against `cli`. */
export function describeCliHarness(cli: CliHarnessUnderTest): void {
  const { harness } = cli;
  const title = `the ${harness.id} harness drives ${harness.package}@${harness.version}`;
  describe.skipIf(cli.skip !== undefined)(
    cli.skip === undefined ? title : `${title} (skipped: ${cli.skip})`,
    () => {
      let model: ScriptedServer;
      let client: ReturnType<typeof createModelClient>;
      let server: InterceptionServer;
      beforeAll(async () => {
        await harness.prepare?.({ cacheDir: TEST_CACHE_DIR });
        model = await startScriptedServer({ reply: scriptFor(cli.writeAnswer), tokens: true });
        client = createModelClient({
          type: "openai_chat_completions",
          baseUrl: model.url,
          apiKey: "EMPTY",
          maxRetries: 0,
        });
        server = await startInterceptionServer();
      }, PREPARE_MS);
      afterAll(async () => {
        await server?.close();
        await client?.close();
        await model?.close();
      });

      /** One rollout (in a subprocess runtime by default); `wrap` may change how the runtime runs programs. */
      async function rollout(
        options: {
          runtimes?: RuntimeFactory;
          signal?: AbortSignal;
          wrap?: (runtime: Runtime) => Runtime;
        } = {},
      ) {
        const task = answerTask();
        const registered = server.register({ client, model: "scripted", servedModel: MODEL });
        const runtimes = options.runtimes ?? subprocessRuntime({ quiet: true });
        const made = await runtimes.create(task, { interceptionUrl: server.url });
        const runtime = options.wrap ? options.wrap(made) : made;
        try {
          const result = await harness.run({
            task,
            runtime,
            model: registered.endpoint(harness.api),
            mcpUrls: [],
            signal: options.signal ?? new AbortController().signal,
          });
          const answer = await runtime.readFile("answer.txt");
          const left = await processesIn(made.workdir);
          const trace = await registered.end({ exitCode: result.exitCode, output: result.output });
          return { result, answer, left, trace };
        } finally {
          await made.close();
        }
      }

      it("writes answer.txt with its own tool when the scripted model calls it, and the trace holds both calls", async () => {
        const { result, answer, trace } = await rollout();
        expect(result.exitCode, result.output).toBe(0);
        expect(answer?.trim(), result.output).toBe("42");

        const asked = trace.calls.findIndex((call) =>
          call.reply?.tool_calls?.some((tc) => tc.function.name === cli.writeAnswer.name),
        );
        expect(asked, JSON.stringify(trace.calls.map((c) => c.reply))).toBeGreaterThanOrEqual(0);
        const toolCall = trace.calls[asked]!.reply!.tool_calls![0]!;
        const answered = trace.calls.find((call) =>
          call.messages.some((m) => m.role === "tool" && m.tool_call_id === toolCall.id),
        );
        expect(answered?.reply?.content).toBe("Done: answer.txt holds 42.");
        expect(trace.errors).toEqual([]);
        for (const call of trace.calls) {
          expect(call.api).toBe(harness.api);
          expect(call.model).toBe(MODEL);
        }
      });

      it.skipIf(cli.localSkip !== undefined)(
        `does the same in the local sandbox runtime, the CLI's folder shown read-only${cli.localSkip ? ` (skipped: ${cli.localSkip})` : ""}`,
        async () => {
          const runtimes = localRuntime({
            readOnlyPaths: [harness.installDir(TEST_CACHE_DIR)],
            sandboxUid: cli.sandboxUid,
          });
          const { result, answer, trace } = await rollout({ runtimes });
          expect(result.exitCode, result.output).toBe(0);
          expect(answer?.trim(), result.output).toBe("42");
          const replies = trace.calls.map((call) => call.reply?.content);
          expect(replies).toContain("Done: answer.txt holds 42.");
        },
      );

      it.skipIf(cli.mcpSkip !== undefined)(
        cli.mcp
          ? `offers the task's MCP tools, whose results reach the model${cli.mcpSkip ? ` (skipped: ${cli.mcpSkip})` : ""}`
          : "refuses a task with MCP tools, having no MCP client",
        async () => {
          // The task's tools as vf serves them (Taskset.tools): MCP on the interception server.
          const echoed: string[] = [];
          const echo = tool({
            name: "echo",
            description: "Echo the text back.",
            parameters: z.object({ text: z.string() }),
            run: ({ text }) => {
              echoed.push(text);
              return text;
            },
          });
          // The model calls the MCP server's echo tool, under whatever name the CLI gives it.
          const mcpModel = await startScriptedServer({
            reply: byPrompt((messages, request): ScriptedReply => {
              const last = messages.at(-1);
              if (last?.role === "tool")
                return { type: "message", content: `the tool said: ${contentText(last.content)}` };
              const echo = request.tools?.find((t) => /echo$/.test(t.function.name));
              if (echo)
                return {
                  type: "message",
                  content: "",
                  toolCalls: [{ name: echo.function.name, arguments: { text: "hello from mcp" } }],
                };
              return { type: "message", content: "ok" };
            }),
          });
          const mcpClient = createModelClient({
            type: "openai_chat_completions",
            baseUrl: mcpModel.url,
            apiKey: "EMPTY",
            maxRetries: 0,
          });
          const task = answerTask();
          const registered = server.register({ client: mcpClient, model: "scripted", servedModel: MODEL });
          const runtime = await subprocessRuntime({ quiet: true }).create(task, {
            interceptionUrl: server.url,
          });
          const mcpUrl = registered.serveTools(
            taskToolSession([echo], { task, runtime, signal: new AbortController().signal }),
          );
          try {
            const run = harness.run({
              task,
              runtime,
              model: registered.endpoint(harness.api),
              mcpUrls: [mcpUrl],
              signal: new AbortController().signal,
            });
            if (!cli.mcp) {
              await expect(run).rejects.toThrow(UserError);
              return;
            }
            const result = await run;
            const trace = await registered.end({ exitCode: result.exitCode, output: result.output });
            expect(result.exitCode, result.output).toBe(0);
            const replies = trace.calls.map((call) => contentText(call.reply?.content ?? ""));
            const offered = trace.calls.map((call) => call.tools.map((t) => t.function.name).join(","));
            // The tool's text as the CLI passes it on (Codex puts the call's wall time before it).
            const said = replies.find((reply) => reply.startsWith("the tool said: "));
            expect(said, `${result.output}\n${offered.join("\n")}`).toMatch(/hello from mcp$/);
            expect(echoed).toContain("hello from mcp");
          } finally {
            await registered.end();
            await runtime.close();
            await mcpClient.close();
            await mcpModel.close();
          }
        },
      );

      const strace = hasStrace();
      it.skipIf(!strace)(
        `connects to nothing but the interception server${strace ? "" : " (skipped: no strace here)"}`,
        async () => {
          const port = new URL(server.url).port;
          const connects: string[] = [];
          const { result, answer } = await rollout({ wrap: (runtime) => traced(runtime, connects) });
          expect(result.exitCode, result.output).toBe(0);
          expect(answer?.trim(), result.output).toBe("42");
          const elsewhere = connects.filter((line) => !line.includes(`sin_port=htons(${port})`));
          expect(connects.length).toBeGreaterThan(0);
          expect(elsewhere).toEqual([]);
        },
      );

      it("ends, with everything it started, when the rollout is cancelled", async () => {
        const controller = new AbortController();
        // The model never answers in time; the rollout is cancelled once the CLI has asked.
        const slow = await startScriptedServer({ reply: scriptFor(cli.writeAnswer), latencySeconds: 600 });
        const slowClient = createModelClient({
          type: "openai_chat_completions",
          baseUrl: slow.url,
          apiKey: "EMPTY",
          maxRetries: 0,
        });
        const waiting = setInterval(() => {
          if (slow.requests.length > 0) controller.abort();
        }, 100);
        try {
          const task = answerTask();
          const registered = server.register({ client: slowClient, model: "scripted", servedModel: MODEL });
          const runtime = await subprocessRuntime({ quiet: true }).create(task, {
            interceptionUrl: server.url,
          });
          try {
            const started = Date.now();
            const result = await harness.run({
              task,
              runtime,
              model: registered.endpoint(harness.api),
              mcpUrls: [],
              signal: controller.signal,
            });
            expect(controller.signal.aborted).toBe(true);
            expect(result.exitCode).toBeNull();
            expect(Date.now() - started).toBeLessThan(120_000);
            expect(await processesIn(runtime.workdir)).toEqual([]);
            await registered.end({ stop: "cancelled" });
          } finally {
            await runtime.close();
          }
        } finally {
          clearInterval(waiting);
          await slowClient.close();
          await slow.close();
        }
      });
    },
  );
}

/** Whether strace can trace a program here. */
function hasStrace(): boolean {
  try {
    execFileSync("strace", ["-qq", "-e", "trace=none", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * `runtime`, but the program of each exec runs under strace, and the network connections it and
 * its children made (not Unix sockets) are appended to `connects` when it ends.
 */
function traced(runtime: Runtime, connects: string[]): Runtime {
  let n = 0;
  return {
    workdir: runtime.workdir,
    readFile: (path) => runtime.readFile(path),
    writeFile: (path, content) => runtime.writeFile(path, content),
    close: () => runtime.close(),
    async exec(argv: readonly string[], options?: ExecOptions) {
      const log = join(runtime.workdir, "..", `strace-${n++}.log`);
      const result = await runtime.exec(
        ["strace", "-f", "-qq", "-e", "trace=connect", "-o", log, ...argv],
        options,
      );
      const lines = (await readFile(log, "utf8").catch(() => "")).split("\n");
      connects.push(...lines.filter((line) => /connect\(.*sa_family=AF_INET6?/.test(line)));
      return result;
    },
  };
}

/** Pids of live processes whose working folder is `dir` or inside it. */
async function processesIn(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => "");
    if (cwd === dir || cwd.startsWith(`${dir}/`)) pids.push(Number(entry));
  }
  return pids;
}
