/**
 * What the tests of served agents share: a scripted coding model (vLLM's token fields on every
 * answer) that fixes js-slugify with one bash call, starts a long command on py-median (a run to
 * cancel), and gives up on anything else; `vf env serve` started as a program; and the host's view
 * of the processes a served agent left.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { localRuntime } from "@vf-rl/agents";
import { AgentTask } from "@vf-rl/core/agents";
import { type ReplyFn, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const vf = join(repo, "packages", "cli", "bin", "vf.js");

/** js-slugify's fix, sed in the working folder. */
const SLUGIFY_FIX = `sed -i 's#\\.replace(/\\[^a-z0-9\\]+/g, "-");#.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");#' src/slugify.js`;

/** What py-median's agent runs: a command that outlives any test, named by `marker`. */
export function longCommand(marker: string): string {
  return `sleep 600; echo ${marker}`;
}

/**
 * The coding model: a bash call fixing js-slugify, a bash call running `longCommand(marker)` on
 * py-median, "Done." once a tool has answered, and "I cannot fix this." for any other task.
 */
export function codingReply(marker: string): ReplyFn {
  return (request) => {
    if (request.messages.some((message) => message.role === "tool")) return "Done.";
    const asked = JSON.stringify(request.messages);
    const command = asked.includes("stray dashes")
      ? SLUGIFY_FIX
      : asked.includes("median")
        ? longCommand(marker)
        : null;
    if (command === null) return "I cannot fix this.";
    return { type: "message", toolCalls: [{ name: "bash", arguments: { command } }] };
  };
}

/** The coding model as a scripted OpenAI-compatible server with token ids and logprobs. */
export function startCodingModel(marker: string): Promise<ScriptedServer> {
  return startScriptedServer({ tokens: true, record: false, reply: codingReply(marker) });
}

/** The runtimes this machine runs agents in: subprocess, and the local sandbox where it can confine. */
export async function agentRuntimes(): Promise<string[]> {
  try {
    const task = AgentTask.parse({ id: "probe", exampleId: 0, prompt: [] });
    await (await localRuntime().create(task, { interceptionUrl: "http://127.0.0.1:9" })).close();
    return ["subprocess", "local"];
  } catch (error) {
    console.warn(`the local sandbox cannot run here, its cases are skipped: ${String(error)}`);
    return ["subprocess"];
  }
}

/** A `vf env serve` program: its address, its first worker's pid, the process. */
export interface ServedProgram {
  address: string;
  workerPid: number;
  child: ChildProcess;
  stderr: string[];
}

/** Starts `vf env serve ARGS` on a free loopback port; resolves once it prints its address. */
export async function serveProgram(args: string[]): Promise<ServedProgram> {
  const child = spawn(process.execPath, [vf, "env", "serve", ...args, "--address", "tcp://127.0.0.1:0"], {
    cwd: repo,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  const workerPid = new Promise<number>((resolve) => {
    createInterface({ input: child.stderr! }).on("line", (line) => {
      stderr.push(line);
      const ready = /^worker 0 ready \(pid (\d+)\)/.exec(line);
      if (ready) resolve(Number(ready[1]));
    });
  });
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`vf env serve exited (${code}): ${stderr.join("\n")}`)));
  });
  return { address, workerPid: await workerPid, child, stderr };
}

/** Live processes (zombies excluded) whose command line holds `text`. */
export async function processesWith(text: string): Promise<number[]> {
  const pids: number[] = [];
  for (const pid of await pidsNow()) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (cmdline.replaceAll("\0", " ").includes(text) && (await state(pid)) !== "Z") pids.push(pid);
  }
  return pids;
}

/** Live processes (zombies excluded) descending from `root`. */
export async function descendantsOf(root: number): Promise<number[]> {
  const parent = new Map<number, number>();
  for (const pid of await pidsNow()) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== undefined && fields[0] !== "Z") parent.set(pid, Number(fields[1]));
  }
  const found: number[] = [];
  for (const pid of parent.keys()) {
    for (let up = parent.get(pid); up !== undefined; up = parent.get(up)) {
      if (up === root) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

/** The command lines of `pids` (those still running), for an assertion's message. */
export async function commandsOf(pids: number[]): Promise<string[]> {
  const lines: string[] = [];
  for (const pid of pids) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => null);
    if (cmdline !== null) lines.push(`${pid}: ${cmdline.replaceAll("\0", " ").trim()}`);
  }
  return lines;
}

/** Waits until `condition` holds, checking every 100 ms, for at most `seconds`. */
export async function eventually(condition: () => Promise<boolean>, seconds = 30): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

async function pidsNow(): Promise<number[]> {
  return (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry)).map(Number);
}

async function state(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
}
