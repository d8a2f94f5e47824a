/**
 * The real vf binary in a real terminal, for tests of what a user sees there: colour, progress
 * redrawn in place. `runVfInScript` runs it in a pseudo-terminal (util-linux `script`) and returns
 * the raw bytes it wrote; `runVfInTmux` runs it in a tmux pane of a given size and returns the
 * screen as tmux drew it, scrollback included, once vf has exited.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VF_BIN } from "../src/testing/index.ts";

export interface TerminalRunOptions {
  cwd: string;
  /** Variables added to the environment; NO_COLOR, FORCE_COLOR and CI are removed unless given here. */
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
  timeoutMs?: number;
}

export interface TerminalRun {
  code: number | null;
  /** `runVfInScript`: every byte written, escapes included; `runVfInTmux`: the screen's text. */
  output: string;
}

/** Runs `vf ARGS` with stdout and stderr on a pseudo-terminal. */
export async function runVfInScript(args: string[], options: TerminalRunOptions): Promise<TerminalRun> {
  const { columns = 120, rows = 40 } = options;
  const command = `stty cols ${columns} rows ${rows}; exec ${vfCommand(args)}`;
  const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
    cwd: options.cwd,
    env: terminalEnv(options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  return { code, output };
}

/** Runs `vf ARGS` in a detached tmux pane and returns what the pane shows after it exits. */
export async function runVfInTmux(args: string[], options: TerminalRunOptions): Promise<TerminalRun> {
  const { columns = 120, rows = 40 } = options;
  const dir = await mkdtemp(join(tmpdir(), "vf-tmux-"));
  const socket = join(dir, "socket");
  const codeFile = join(dir, "code");
  const tmux = (tmuxArgs: string[], timeoutMs = 30_000) =>
    run(
      "tmux",
      ["-S", socket, "-f", "/dev/null", ...tmuxArgs],
      options.cwd,
      terminalEnv(options.env),
      timeoutMs,
    );
  // The pane stays open after vf exits (the sleep), so its screen can be read; wait-for says when.
  const script = `${vfCommand(args)}; echo $? > ${quote(codeFile)}; tmux -S ${quote(socket)} wait-for -S vf-done; sleep 600`;
  try {
    await tmux(["new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "vf", script]);
    await tmux(["wait-for", "vf-done"], options.timeoutMs ?? 120_000);
    const screen = await tmux(["capture-pane", "-p", "-t", "vf", "-S", "-", "-E", "-"]);
    const code = Number((await readFile(codeFile, "utf8")).trim());
    return { code, output: screen.replace(/\n+$/, "\n") };
  } finally {
    await tmux(["kill-server"]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

function vfCommand(args: string[]): string {
  return [process.execPath, VF_BIN, ...args].map(quote).join(" ");
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function terminalEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: "xterm-256color" };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.CI;
  delete env.TMUX;
  return { ...env, ...extra };
}

/** Runs a program to its end; resolves with its stdout, rejects when it fails or takes too long. */
function run(program: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${program} ${args.join(" ")} failed (${signal ?? code}): ${stderr.trim()}`));
    });
  });
}
