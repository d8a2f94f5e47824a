/**
 * A tool environment whose `python` tool runs code in a per-rollout sandbox. Each rollout gets its
 * own folder (made in `initialData`, read by the tool from the rollout's state) and its own
 * sandbox process; a cleanup kills the process and removes the folder when the rollout ends,
 * errors, times out or is cancelled. A sandbox that cannot confine code ends the rollout with a
 * `SandboxError` (recorded, and retryable as an infrastructure error); it never runs code unconfined.
 */
import { SandboxError, ToolEnv, type ToolEnvOptions } from "@vf-rl/core";
import { type PythonData, pythonTool } from "./python-tool.ts";
import { createSandboxFolder, removeSandboxFolder } from "./sandbox/sandbox-folder.ts";
import type { SandboxOptions } from "./sandbox/sandbox-options.ts";

export interface PythonEnvOptions extends Omit<ToolEnvOptions<PythonData>, "tools" | "initialData"> {
  /** Limits and programs of the sandboxes. */
  sandbox: SandboxOptions;
}

/** Problems solved with a sandboxed Python tool. */
export class PythonEnv extends ToolEnv<PythonData> {
  readonly sandbox: SandboxOptions;

  constructor(options: PythonEnvOptions) {
    const { sandbox, ...rest } = options;
    super({
      ...rest,
      tools: [pythonTool(sandbox)],
      stopErrors: [...(rest.stopErrors ?? []), SandboxError],
      initialData: () => ({ folder: createSandboxFolder(sandbox) }),
    });
    this.sandbox = sandbox;
    this.addCleanup("python-sandbox", async (state) => {
      // From here on the tool starts no sandbox, so the one read below is the last there will be.
      state.data.closed = true;
      const { folder, sandbox: started } = state.data;
      const running = await started?.catch(() => undefined);
      await running?.close();
      await removeSandboxFolder(folder);
    });
  }
}
