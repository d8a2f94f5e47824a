/**
 * The `python(code)` tool: runs code in the rollout's sandbox, started on the first call (and again
 * after a call killed it) in the rollout's folder, which it reads from the rollout's state. A failure of the code (an exception, a limit hit, a
 * timeout) is thrown as a `PythonCodeError`, which the model reads as a tool error and can recover
 * from; a sandbox that cannot start at all throws a `SandboxError`, which ends the rollout.
 */
import { type ToolCallContext, ToolError, tool } from "@vf-rl/core";
import { z } from "zod";
import { PythonSandbox } from "./sandbox/python-sandbox.ts";
import type { RunResult } from "./sandbox/run-result.ts";
import type { SandboxFolder } from "./sandbox/sandbox-folder.ts";
import type { SandboxOptions } from "./sandbox/sandbox-options.ts";

/** The per-rollout state of the python environment. */
export interface PythonData {
  /** The rollout's folder, made in `initialData`. */
  folder: SandboxFolder;
  /** The running sandbox, once the first call has started it. */
  sandbox?: Promise<PythonSandbox>;
  /** Set by the cleanup: no sandbox may start after it. */
  closed?: boolean;
}

/** What kind of failure a call had: the code raised, ran out of time, or the sandbox died. */
export type CodeFailure = "error" | "timeout" | "crashed";

/** The code failed inside the sandbox; the message (what the model reads) says why and what limit. */
export class PythonCodeError extends ToolError {
  constructor(
    message: string,
    readonly failure: CodeFailure,
    /** The limit the code hit, as a sentence, when it hit one. */
    readonly limit: string | null,
  ) {
    super(message);
  }
}

/** The tool's arguments. */
export const PythonToolArgs = z.object({
  code: z.string().describe("Python 3 code to run; the value of a final expression is printed"),
});

/** The python tool for sandboxes with these options. */
export function pythonTool(options: SandboxOptions) {
  return tool({
    name: "python",
    description: `Run Python 3 code in a sandbox and see what it prints (the value of a last expression is printed too). Variables, imports and files in /sandbox persist between calls. Only the standard library; no network; files only under /sandbox; each call may take ${options.timeoutSeconds} s.`,
    parameters: PythonToolArgs,
    run: async ({ code }: z.infer<typeof PythonToolArgs>, ctx: ToolCallContext<PythonData>) => {
      const folder = ctx.state.data.folder;
      let sandbox = await ctx.state.data.sandbox;
      if (!sandbox?.alive) {
        if (ctx.state.data.closed || ctx.signal.aborted) {
          throw new PythonCodeError("the rollout has ended: no more code runs", "crashed", null);
        }
        ctx.state.data.sandbox = PythonSandbox.start(folder, options);
        sandbox = await ctx.state.data.sandbox;
      }
      return toolAnswer(await sandbox.run(code, { signal: ctx.signal }), options.maxOutputChars);
    },
  });
}

/** The text the model gets for a result, or the `PythonCodeError` it gets instead. */
export function toolAnswer(result: RunResult, maxChars: number): string {
  switch (result.type) {
    case "ok":
      return result.output === "" ? "(no output)" : clip(result.output, result.outputBytes, maxChars);
    case "error": {
      const printed =
        result.output === ""
          ? ""
          : `\nOutput before the error:\n${clip(result.output, result.outputBytes, maxChars)}`;
      const head = result.limit ? `${result.limit}\n` : "";
      throw new PythonCodeError(
        `${head}${result.traceback || result.error}${printed}`,
        "error",
        result.limit,
      );
    }
    case "timeout": {
      const limit = `time limit reached: a call may run ${result.timeoutSeconds} s`;
      throw new PythonCodeError(
        `${limit}, and this one did not stop when told to, so the sandbox was restarted: variables and imports are lost (files in /sandbox remain)`,
        "timeout",
        limit,
      );
    }
    case "threads": {
      const limit = `threads left running: a call lasts until the threads it started end (within its ${result.timeoutSeconds} s)`;
      const printed =
        result.output === ""
          ? ""
          : `\nOutput of the call:\n${clip(result.output, result.outputBytes, maxChars)}`;
      const count = result.threads === 1 ? "1 thread" : `${result.threads} threads`;
      throw new PythonCodeError(
        `${limit}; ${count} still ran when it ended, and a thread cannot be stopped alone, so the sandbox was restarted: variables and imports are lost (files in /sandbox remain); join your threads before the call ends${printed}`,
        "timeout",
        limit,
      );
    }
    case "processes": {
      const limit = "processes left running: every process a call starts ends with the call";
      const printed =
        result.output === ""
          ? ""
          : `\nOutput of the call:\n${clip(result.output, result.outputBytes, maxChars)}`;
      const count = result.processes === 1 ? "1 process" : `${result.processes} processes`;
      throw new PythonCodeError(
        `${limit}; ${count} outlived this one (the sandbox's own clean-up was disabled), so the sandbox was restarted: variables and imports are lost (files in /sandbox remain)${printed}`,
        "crashed",
        limit,
      );
    }
    case "crashed":
      throw new PythonCodeError(
        `the sandbox stopped (${result.detail}); it restarts on the next call, without the variables and imports (files in /sandbox remain)`,
        "crashed",
        null,
      );
  }
}

function clip(output: string, bytes: number, maxChars: number): string {
  if (output.length <= maxChars && bytes <= Buffer.byteLength(output)) return output;
  const kept = output.slice(0, maxChars);
  return `${kept}\n[output cut: ${bytes} bytes in all, the first ${kept.length} characters shown]`;
}
