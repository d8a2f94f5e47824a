// vf's bash agent, the reference harness: a whole coding agent in one file, plain JavaScript for
// Node 20 with no dependencies. It runs inside the rollout's runtime, in the task's working folder,
// and speaks chat completions to vf's interception server (which forwards to the model and records
// the trace). The model has two tools: `bash` runs a command in the working folder and returns its
// output (cut in the middle past `maxOutputChars`) and exit code; `write_file` writes a file. A
// task's own tools come from the MCP servers at `mcpUrls` (streamable HTTP: JSON-RPC over POST),
// listed once at the start and offered beside those two. The loop ends when the model answers without a tool call (exit 0) or a model call fails, e.g. because
// vf ended the run at a limit (exit 1, the reason on stderr).
//
// bash-harness.ts pipes this file to `node --input-type=module -` after a line that sets
// `globalThis.vfAgentConfig`; by hand: `node bash-agent.mjs config.json`, with the same fields:
// { baseUrl, apiKey, model, messages, maxOutputChars, commandTimeoutSeconds, tools, mcpUrls } (tools:
// the names offered, default both; mcpUrls: MCP servers' URLs, default none).
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import { dirname, resolve } from "node:path";

const config = globalThis.vfAgentConfig ?? JSON.parse(await readFile(process.argv[2], "utf8"));

const ALL_TOOLS = [
  {
    type: "function",
    function: {
      name: "bash",
      description:
        "Run a bash command in the working folder and get its output (stdout and stderr) and exit code. Each command runs in a fresh shell.",
      parameters: {
        type: "object",
        properties: { command: { type: "string", description: "The command, e.g. `ls -la` or `npm test`." } },
        required: ["command"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "write_file",
      description: "Write a file in the working folder, creating it (and its folders) or replacing it.",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string", description: "The file's path, relative to the working folder." },
          content: { type: "string", description: "The whole new content of the file." },
        },
        required: ["path", "content"],
      },
    },
  },
];
const offered = config.tools ?? ["bash", "write_file"];
const TOOLS = ALL_TOOLS.filter((tool) => offered.includes(tool.function.name));

/** The MCP servers' tools: each name to the URL of the server that has it. */
const mcpTools = new Map();
let rpcId = 0;

/** One JSON-RPC message to the MCP server at `url`: a request's result, or nothing for a notification. */
async function rpc(url, method, params, notification = false) {
  const id = notification ? undefined : ++rpcId;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
  const { status, text, type } = await post(url, body, { accept: "application/json, text/event-stream" });
  if (notification) return null;
  if (status < 200 || status >= 300) {
    throw new Error(`the MCP server at ${url} answered ${method} with ${status}: ${text.slice(0, 200)}`);
  }
  // A server answers in JSON, or as an event stream whose data lines are JSON-RPC messages.
  const messages = type.includes("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(text)];
  const answer = messages.find((message) => message.id === id);
  if (!answer) throw new Error(`the MCP server at ${url} did not answer ${method}`);
  if (answer.error) throw new Error(`the MCP server at ${url} refused ${method}: ${answer.error.message}`);
  return answer.result;
}

/** Lists the tools of each MCP server and offers them to the model (a name taken already is skipped). */
async function listMcpTools() {
  for (const url of config.mcpUrls ?? []) {
    const clientInfo = { name: "vf-bash-agent", version: "1" };
    await rpc(url, "initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo });
    await rpc(url, "notifications/initialized", undefined, true);
    const { tools } = await rpc(url, "tools/list", {});
    for (const tool of tools) {
      if (TOOLS.some((known) => known.function.name === tool.name)) continue;
      mcpTools.set(tool.name, url);
      const parameters = tool.inputSchema ?? { type: "object", properties: {} };
      TOOLS.push({
        type: "function",
        function: { name: tool.name, description: tool.description ?? "", parameters },
      });
    }
  }
}

/** Calls an MCP server's tool; its text (an error result marked as one) is the tool message. */
async function callMcpTool(name, args) {
  const result = await rpc(mcpTools.get(name), "tools/call", { name, arguments: args });
  const text = (result.content ?? [])
    .map((part) => (part.type === "text" ? part.text : `[${part.type}]`))
    .join("\n");
  return result.isError ? `error: ${text}` : text;
}

/** One model call: the assistant message it answered. (node:http, not fetch: fetch costs a start.) */
async function complete(messages) {
  const body = JSON.stringify({ model: config.model, messages, tools: TOOLS });
  const { status, text } = await post(`${config.baseUrl}/chat/completions`, body);
  let answer = null;
  try {
    answer = JSON.parse(text);
  } catch {}
  if (status < 200 || status >= 300) {
    throw new Error(
      `the model call failed (${status}): ${answer?.error?.message ?? (text.slice(0, 200) || "no message")}`,
    );
  }
  const message = answer?.choices?.[0]?.message;
  if (!message) throw new Error("the model's answer holds no message");
  return message;
}

/** POSTs JSON; resolves with the status, the body's text and its content type. */
function post(url, body, headers = {}) {
  const { request } = url.startsWith("https:") ? https : http;
  return new Promise((done, fail) => {
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        authorization: `Bearer ${config.apiKey}`,
        ...headers,
      },
    });
    req.on("error", fail);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () =>
        done({ status: res.statusCode ?? 0, text, type: res.headers["content-type"] ?? "" }),
      );
      res.on("error", fail);
    });
    req.end(body);
  });
}

/** Runs a command in a shell of its own; resolves with its output and how it ended. */
function bash(command) {
  return new Promise((done) => {
    const child = spawn("bash", ["-c", command], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    const output = keptOutput(config.maxOutputChars);
    child.stdout.setEncoding("utf8").on("data", output.add);
    child.stderr.setEncoding("utf8").on("data", output.add);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL"); // the command and everything it started
      } catch {}
    }, config.commandTimeoutSeconds * 1000);
    child.on("error", (error) => {
      clearTimeout(timer);
      done(`the command could not start: ${error.message}`);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const end = timedOut
        ? `[killed after ${config.commandTimeoutSeconds} s]`
        : `[exit code ${code ?? signal}]`;
      done(`${output.text()}${end}`);
    });
  });
}

/** The start and the end of a stream of text, at most `max` characters, with what was cut in between. */
function keptOutput(max) {
  const half = Math.floor(max / 2);
  let head = "";
  let tail = "";
  let total = 0;
  return {
    add: (chunk) => {
      total += chunk.length;
      if (head.length < half) {
        const room = half - head.length;
        head += chunk.slice(0, room);
        chunk = chunk.slice(room);
      }
      tail = (tail + chunk).slice(-half);
    },
    text: () => {
      const cut = total - head.length - tail.length;
      const middle = cut > 0 ? `\n[... ${cut} characters cut ...]\n` : "";
      const text = head + middle + tail;
      return text === "" || text.endsWith("\n") ? text : `${text}\n`;
    },
  };
}

/** What a tool call comes to, as the tool message's content. */
async function runTool(call) {
  let args;
  try {
    args = JSON.parse(call.function.arguments || "{}");
  } catch {
    return "error: the arguments are not valid JSON";
  }
  switch (call.function.name) {
    case "bash":
      if (typeof args.command !== "string") return "error: bash needs a `command` string";
      console.log(`$ ${args.command}`);
      return bash(args.command);
    case "write_file": {
      if (typeof args.path !== "string" || typeof args.content !== "string") {
        return "error: write_file needs `path` and `content` strings";
      }
      const path = resolve(args.path);
      console.log(`> ${args.path} (${args.content.length} characters)`);
      try {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, args.content);
        return `wrote ${args.path}`;
      } catch (error) {
        return `error: ${error.message}`;
      }
    }
    default:
      if (mcpTools.has(call.function.name)) {
        console.log(`> ${call.function.name} ${call.function.arguments || "{}"}`);
        try {
          return await callMcpTool(call.function.name, args);
        } catch (error) {
          return `error: ${error.message}`;
        }
      }
      return `error: there is no tool "${call.function.name}": use ${TOOLS.map((t) => t.function.name).join(", ")}`;
  }
}

const messages = [...config.messages];
try {
  await listMcpTools();
  for (;;) {
    const reply = await complete(messages);
    messages.push(reply);
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) {
      console.log(reply.content ?? "");
      break;
    }
    for (const call of calls) {
      messages.push({ role: "tool", tool_call_id: call.id, content: await runTool(call) });
    }
  }
} catch (error) {
  console.error(`vf-bash-agent: ${error.message}`);
  process.exitCode = 1;
}
