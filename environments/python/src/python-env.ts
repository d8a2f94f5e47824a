/**
 * A tool environment whose `python` tool runs code in a per-rollout sandbox. Each rollout gets its
 * own folder (made in `initialData`, passed to the tool as the hidden `sandbox_dir`) and its own
 * sandbox process; a cleanup kills the process and removes the folder when the rollout ends,
 * errors, times out or is cancelled. A sandbox that cannot confine code ends the rollout with a
 * `SandboxError` (recorded, and retryable as an infrastructure error); it never runs code unconfined.
 */
import {
  type Messages,
  type RolloutInput,
  type RolloutState,
  SandboxError,
  StatefulToolEnv,
  type StatefulToolEnvOptions,
} from "@vf-rl/core";
import { type PythonData, pythonTool } from "./python-tool.ts";
import { createSandboxFolder, removeSandboxFolder } from "./sandbox/sandbox-folder.ts";
import type { SandboxOptions } from "./sandbox/sandbox-options.ts";

export interface PythonEnvOptions extends Omit<StatefulToolEnvOptions<PythonData>, "tools"> {
  /** Limits and programs of the sandboxes. */
  sandbox: SandboxOptions;
}

/** Problems solved with a sandboxed Python tool. */
export class PythonEnv extends StatefulToolEnv<PythonData> {
  readonly sandbox: SandboxOptions;

  constructor(options: PythonEnvOptions) {
    const { sandbox, ...rest } = options;
    super({
      ...rest,
      tools: [{ tool: pythonTool(sandbox), hiddenArgs: ["sandbox_dir"] }],
      stopErrors: [...(rest.stopErrors ?? []), SandboxError],
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

  protected override initialData(_input: RolloutInput): PythonData {
    return { folder: createSandboxFolder(this.sandbox) };
  }

  protected updateToolArgs(
    _name: string,
    args: Record<string, unknown>,
    _messages: Messages,
    state: RolloutState<PythonData>,
  ): Record<string, unknown> {
    return { ...args, sandbox_dir: state.data.folder.path };
  }
}
