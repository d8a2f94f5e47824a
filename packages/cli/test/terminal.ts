/**
 * The real vf binary in a real terminal, for tests of what a user sees there: colour, progress
 * redrawn in place. `runVfInScript` runs it in a pseudo-terminal (util-linux `script`) and returns
 * the raw bytes it wrote; `runVfInTmux` runs it in a tmux pane of a given size and returns the
 * screen as tmux drew it, scrollback included, once vf has exited; `startVfInTmux` does the same
 * step by step, so a test can read the screen and press keys while vf runs.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VF_BIN } from "@vf-rl/test-support";

export interface TerminalRunOptions {
  cwd: string;
  /** Variables added to the environment; NO_COLOR, FORCE_COLOR and CI are removed unless given here. */
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
  /** Kills vf after this many seconds; default 120. */
  timeoutSeconds?: number;
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
  const timer = setTimeout(() => child.kill("SIGKILL"), (options.timeoutSeconds ?? 120) * 1000);
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
  const tmux = tmuxOn(socket, options);
  // The pane stays open after vf exits (the sleep), so its screen can be read; wait-for says when.
  const script = `${vfCommand(args)}; echo $? > ${quote(codeFile)}; tmux -S ${quote(socket)} wait-for -S vf-done; sleep 600`;
  try {
    await tmux(["new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "vf", script]);
    await tmux(["wait-for", "vf-done"], options.timeoutSeconds ?? 120);
    const screen = await tmux(["capture-pane", "-p", "-t", "vf", "-S", "-", "-E", "-"]);
    const code = Number((await readFile(codeFile, "utf8")).trim());
    return { code, output: screen.replace(/\n+$/, "\n") };
  } finally {
    await tmux(["kill-server"]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** vf running in a tmux pane, driven by a test. */
export interface TmuxVf {
  /** The pane as it shows now (the alternate screen while a program has it up). */
  screen(): Promise<string>;
  /** Whether a program has the pane's alternate screen up. */
  alternateOn(): Promise<boolean>;
  /** Waits until the pane shows `pattern` (polling, up to `timeoutSeconds`, default 120), and returns the screen. */
  waitForScreen(pattern: RegExp, timeoutSeconds?: number): Promise<string>;
  /** tmux send-keys: "q", "Enter", "C-c", ... */
  sendKeys(...keys: string[]): Promise<void>;
  /**
   * Waits for vf to exit: its code, the pane's text (scrollback included) and every byte vf wrote
   * to the pane (escapes included); up to `timeoutSeconds`, default 120.
   */
  exited(timeoutSeconds?: number): Promise<{ code: number; output: string; raw: string }>;
  /** Ends the tmux server and removes its files. */
  close(): Promise<void>;
}

const EXITED = "vf-has-exited";

/**
 * Starts `vf ARGS` in a detached tmux pane, after a line `before` printed by the shell (so a test
 * can see that vf leaves the user's screen as it was).
 */
export async function startVfInTmux(
  args: string[],
  options: TerminalRunOptions & { before?: string },
): Promise<TmuxVf> {
  const { columns = 120, rows = 40 } = options;
  const dir = await mkdtemp(join(tmpdir(), "vf-tmux-"));
  const socket = join(dir, "socket");
  const codeFile = join(dir, "code");
  const rawFile = join(dir, "raw");
  const tmux = tmuxOn(socket, options);
  // The pane waits for a key before vf starts, so pipe-pane records all vf writes.
  const before = options.before ? `printf '%s\\n' ${quote(options.before)}; ` : "";
  // The last line vf's bytes are followed by, so a test knows the recording has all of them.
  const script = `read -r _; ${before}${vfCommand(args)}; echo $? > ${quote(codeFile)}; echo ${EXITED}; tmux -S ${quote(socket)} wait-for -S vf-done; sleep 600`;
  await tmux(["new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "vf", script]);
  await tmux(["pipe-pane", "-t", "vf", `cat >> ${quote(rawFile)}`]);
  await tmux(["send-keys", "-t", "vf", "Enter"]);
  const screen = () => tmux(["capture-pane", "-p", "-t", "vf"]);
  return {
    screen,
    alternateOn: async () =>
      (await tmux(["display-message", "-p", "-t", "vf", "#{alternate_on}"])).trim() === "1",
    waitForScreen: async (pattern, timeoutSeconds = 120) => {
      const deadline = Date.now() + timeoutSeconds * 1000;
      for (;;) {
        const shown = await screen();
        if (pattern.test(shown)) return shown;
        if (Date.now() > deadline) throw new Error(`the pane never showed ${pattern}; it shows:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    sendKeys: async (...keys) => {
      await tmux(["send-keys", "-t", "vf", ...keys]);
    },
    exited: async (timeoutSeconds = 120) => {
      await tmux(["wait-for", "vf-done"], timeoutSeconds);
      const output = await tmux(["capture-pane", "-p", "-t", "vf", "-S", "-", "-E", "-"]);
      const code = Number((await readFile(codeFile, "utf8")).trim());
      // pipe-pane's copy trails the pane a little.
      let raw = await readFile(rawFile, "utf8");
      for (const deadline = Date.now() + 30_000; !raw.includes(EXITED) && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        raw = await readFile(rawFile, "utf8");
      }
      return { code, output: output.replace(/\n+$/, "\n"), raw };
    },
    close: async () => {
      await tmux(["kill-server"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs tmux on the server at `socket`; each call fails after `timeoutSeconds` (default 30). */
function tmuxOn(socket: string, options: TerminalRunOptions) {
  return (tmuxArgs: string[], timeoutSeconds = 30) =>
    run(
      "tmux",
      ["-S", socket, "-f", "/dev/null", ...tmuxArgs],
      options.cwd,
      terminalEnv(options.env),
      timeoutSeconds,
    );
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
function run(program: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutSeconds: number) {
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
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutSeconds * 1000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${program} ${args.join(" ")} failed (${signal ?? code}): ${stderr.trim()}`));
    });
  });
}
