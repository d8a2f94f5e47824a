/**
 * A tool environment whose tools take per-rollout arguments the model never sees (a sandbox id, a
 * working folder). They are declared in the tool's schema, hidden from the definition sent to the
 * model, and filled in by `updateToolArgs` for each call from the rollout's state.
 *
 * @example
 * class Python extends StatefulToolEnv<{ dir: string }> {
 *   constructor() { super({ dataset, tools: [], }); this.addTool(runPython, ["dir"]); }
 *   protected updateToolArgs(_name: string, args: Record<string, unknown>, _m: Messages, state: RolloutState<{ dir: string }>) {
 *     return { ...args, dir: state.data.dir };
 *   }
 * }
 */
import type { Messages } from "../messages/message.ts";
import type { RolloutState } from "../rollout/rollout-state.ts";
import { type AnyTool, ToolEnv, type ToolEnvOptions } from "./tool-env.ts";

/** A tool with the names of its hidden arguments. */
export interface StatefulTool<Data> {
  tool: AnyTool<Data>;
  hiddenArgs: string[];
}

/** Options of `StatefulToolEnv`: tools, each with the names of its hidden arguments. */
export interface StatefulToolEnvOptions<Data> extends Omit<ToolEnvOptions<Data>, "tools"> {
  tools: Array<AnyTool<Data> | StatefulTool<Data>>;
}

/** A tool environment whose tools take hidden arguments the environment fills in per rollout (`updateToolArgs`). */
export abstract class StatefulToolEnv<Data = Record<string, unknown>> extends ToolEnv<Data> {
  constructor(options: StatefulToolEnvOptions<Data>) {
    super({ ...options, tools: [] });
    for (const entry of options.tools) {
      if ("tool" in entry) this.addTool(entry.tool, entry.hiddenArgs);
      else this.addTool(entry);
    }
  }

  /** Returns the arguments of a call with the hidden ones filled in for this rollout. */
  protected abstract updateToolArgs(
    name: string,
    args: Record<string, unknown>,
    messages: Messages,
    state: RolloutState<Data>,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;

  protected override prepareArgs(
    name: string,
    args: Record<string, unknown>,
    messages: Messages,
    state: RolloutState<Data>,
  ): Record<string, unknown> | Promise<Record<string, unknown>> {
    return this.updateToolArgs(name, args, messages, state);
  }
}
