/**
 * The latency the interception server adds to a model call: the same SDK call (the openai package
 * over chat completions and Responses, @anthropic-ai/sdk over Messages; whole and streamed) made
 * straight to the scripted model server, and through the interception server (which reads it,
 * forwards it through core's chat-completions client to the same scripted server, records the trace
 * and answers in the agent's dialect). One call at a time, direct and through in turn so both see
 * the same machine; the scripted server runs in its own process, with token ids, as a vLLM would.
 * The added latency is p50 through minus p50 direct (and the same for p99). Target: p50 ≤ 2 ms.
 *
 *   npx tsx --conditions=vf-source bench/agents/interception-latency.ts [--calls 500]
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import { startInterceptionServer } from "@vf-rl/core/agents";
import { createModelClient } from "@vf-rl/core/client";
import OpenAI from "openai";

const { values } = parseArgs({ options: { calls: { type: "string", default: "500" } } });
const CALLS = Number(values.calls);
const WARMUP = 50;
const repo = join(import.meta.dirname, "..", "..");
const serverMain = join(repo, "packages", "core", "src", "testing", "scripted-server-main.ts");

/** An agent's turn of moderate size: a system prompt, a tool, a few exchanges with tool results (about 5 KB). */
const SYSTEM = `You are a coding agent. ${"Follow the repository's conventions and run the tests. ".repeat(40)}`;
const TOOL = {
  name: "bash",
  description: "Run a shell command in the working folder.",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};
const HISTORY = Array.from({ length: 3 }, (_, i) => ({
  id: `call_${i}`,
  command: `cat src/file-${i}.ts`,
  output: `export const value${i} = ${i};\n`.repeat(20),
}));

function chatMessages(): OpenAI.ChatCompletionMessageParam[] {
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: "Fix the failing test." },
    ...HISTORY.flatMap((turn): OpenAI.ChatCompletionMessageParam[] => [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: turn.id,
            type: "function",
            function: { name: "bash", arguments: JSON.stringify({ command: turn.command }) },
          },
        ],
      },
      { role: "tool", tool_call_id: turn.id, content: turn.output },
    ]),
  ];
}

function responsesInput(): OpenAI.Responses.ResponseInput {
  return [
    { role: "user", content: "Fix the failing test." },
    ...HISTORY.flatMap(
      (turn): OpenAI.Responses.ResponseInput => [
        {
          type: "function_call",
          call_id: turn.id,
          name: "bash",
          arguments: JSON.stringify({ command: turn.command }),
        },
        { type: "function_call_output", call_id: turn.id, output: turn.output },
      ],
    ),
  ];
}

function anthropicMessages(): Anthropic.MessageParam[] {
  return [
    { role: "user", content: "Fix the failing test." },
    ...HISTORY.flatMap((turn): Anthropic.MessageParam[] => [
      {
        role: "assistant",
        content: [{ type: "tool_use", id: turn.id, name: "bash", input: { command: turn.command } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: turn.id, content: turn.output }] },
    ]),
  ];
}

async function startModel(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=vf-source",
      "--import",
      "tsx",
      serverMain,
      "--reply",
      "fixed:The test passes now: I fixed the import.",
      "--tokens",
    ],
    { cwd: repo, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  return { url: line.trim(), stop: () => child.kill("SIGTERM") };
}

/** One SDK call as an agent makes it, against a base URL and key. */
type AgentCall = (agent: { openai: OpenAI; anthropic: Anthropic }) => Promise<unknown>;

const chatTools: OpenAI.ChatCompletionTool[] = [{ type: "function", function: TOOL }];
const responsesTools: OpenAI.Responses.FunctionTool[] = [{ type: "function", ...TOOL, strict: false }];
const anthropicTools: Anthropic.Tool[] = [
  {
    name: TOOL.name,
    description: TOOL.description,
    input_schema: TOOL.parameters as Anthropic.Tool.InputSchema,
  },
];

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream);
}

const CASES: Array<{ name: string; call: AgentCall }> = [
  {
    name: "chat completions, whole",
    call: ({ openai }) =>
      openai.chat.completions.create({ model: "scripted", messages: chatMessages(), tools: chatTools }),
  },
  {
    name: "chat completions, streamed",
    call: async ({ openai }) =>
      drain(
        await openai.chat.completions.create({
          model: "scripted",
          messages: chatMessages(),
          tools: chatTools,
          stream: true,
        }),
      ),
  },
  {
    name: "Responses, whole",
    call: ({ openai }) =>
      openai.responses.create({
        model: "scripted",
        instructions: SYSTEM,
        input: responsesInput(),
        tools: responsesTools,
      }),
  },
  {
    name: "Responses, streamed (Codex)",
    call: async ({ openai }) =>
      drain(
        await openai.responses.create({
          model: "scripted",
          instructions: SYSTEM,
          input: responsesInput(),
          tools: responsesTools,
          stream: true,
        }),
      ),
  },
  {
    name: "Anthropic Messages, whole",
    call: ({ anthropic }) =>
      anthropic.messages.create({
        model: "scripted",
        max_tokens: 1024,
        system: SYSTEM,
        messages: anthropicMessages(),
        tools: anthropicTools,
      }),
  },
  {
    name: "Anthropic Messages, streamed (Claude Code)",
    call: async ({ anthropic }) =>
      drain(
        await anthropic.messages.create({
          model: "scripted",
          max_tokens: 1024,
          system: SYSTEM,
          messages: anthropicMessages(),
          tools: anthropicTools,
          stream: true,
        }),
      ),
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const model = await startModel();
const client = createModelClient({ type: "openai_chat_completions", baseUrl: model.url, apiKey: "EMPTY" });
const server = await startInterceptionServer();
const host = model.url.replace(/\/v1$/, "");
const direct = {
  openai: new OpenAI({ baseURL: model.url, apiKey: "EMPTY", maxRetries: 0 }),
  anthropic: new Anthropic({ baseURL: host, apiKey: "EMPTY", maxRetries: 0 }),
};

console.log(`interception latency: ${CALLS} calls per case, one at a time (ms)`);
console.log(
  `${"case".padEnd(44)} ${"direct p50".padStart(10)} ${"p99".padStart(7)} ${"through p50".padStart(12)} ${"p99".padStart(7)} ${"added p50".padStart(10)} ${"p99".padStart(7)}`,
);
try {
  for (const { name, call } of CASES) {
    const rollout = server.register({ client, model: "scripted" });
    const through = {
      openai: new OpenAI({
        baseURL: rollout.endpoint("openai_chat_completions").baseUrl,
        apiKey: rollout.secret,
        maxRetries: 0,
      }),
      anthropic: new Anthropic({
        baseURL: rollout.endpoint("anthropic_messages").baseUrl,
        apiKey: rollout.secret,
        maxRetries: 0,
      }),
    };
    const times = { direct: [] as number[], through: [] as number[] };
    for (let i = 0; i < WARMUP + CALLS; i++) {
      // Alternate which goes first, so neither always follows the other's garbage.
      const order = i % 2 === 0 ? (["direct", "through"] as const) : (["through", "direct"] as const);
      for (const side of order) {
        const start = performance.now();
        await call(side === "direct" ? direct : through);
        if (i >= WARMUP) times[side].push(performance.now() - start);
      }
    }
    const trace = await rollout.end();
    if (trace.calls.length !== WARMUP + CALLS || trace.calls.some((c) => c.tokens === null)) {
      throw new Error(`${name}: the trace holds ${trace.calls.length} calls, some without tokens`);
    }
    const d = times.direct.sort((a, b) => a - b);
    const t = times.through.sort((a, b) => a - b);
    const cells = [percentile(d, 50), percentile(d, 99), percentile(t, 50), percentile(t, 99)];
    const added = [cells[2]! - cells[0]!, cells[3]! - cells[1]!];
    console.log(
      `${name.padEnd(44)} ${cells[0]!.toFixed(2).padStart(10)} ${cells[1]!.toFixed(2).padStart(7)} ${cells[2]!.toFixed(2).padStart(12)} ${cells[3]!.toFixed(2).padStart(7)} ${added[0]!.toFixed(2).padStart(10)} ${added[1]!.toFixed(2).padStart(7)}`,
    );
  }
} finally {
  await server.close();
  await client.close();
  model.stop();
}
