/**
 * `vf env`: share environments and tasksets through a Hub (push, install, pull, browse, manage versions), and
 * serve one to Python RL engines (serve, tasks), or its tools to MCP clients (tools).
 */
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { registerEnvDelete } from "./env-delete.ts";
import { registerEnvInfo } from "./env-info.ts";
import { registerEnvInspect } from "./env-inspect.ts";
import { registerEnvInstall } from "./env-install.ts";
import { registerEnvList } from "./env-list.ts";
import { registerEnvPull } from "./env-pull.ts";
import { registerEnvPush } from "./env-push.ts";
import { registerEnvServe } from "./env-serve.ts";
import { registerEnvTasks } from "./env-tasks.ts";
import { registerEnvTools } from "./env-tools.ts";
import { registerEnvUninstall } from "./env-uninstall.ts";
import { registerEnvVersions } from "./env-versions.ts";
import { registerEnvVisibility } from "./env-visibility.ts";

/** Registers `vf env` and its commands. */
export function registerEnv(program: Command, io: Output): void {
  const env = program
    .command("env")
    .description("share environments and tasksets through a Hub: push, install, list, ...")
    .addHelpText(
      "after",
      `
The Hub is --hub URL, else VF_HUB_URL, else the one you logged in to (vf login), else
http://127.0.0.1:8377; the key is VF_API_KEY, else the saved one. Reads of public
environments need no key.

Examples:
  vf env push environments/my-env               publish (again: "already at version X")
  vf env install ada/my-env@0.1.0               then: vf eval ada/my-env
  vf env install ada/bugfix@0.2.0               a taskset: vf eval ada/bugfix --harness bash
  vf env search math                            find environments
  vf env info ada/my-env                        versions, install commands
  vf env serve reverse-text                     to prime-rl / verifiers on tcp://127.0.0.1:5000
  vf env tools wiki-search --mcp                its tools, to any MCP client over stdio`,
    );
  registerEnvPush(env, io);
  registerEnvInstall(env, io);
  registerEnvUninstall(env, io);
  registerEnvPull(env, io);
  registerEnvInfo(env, io);
  registerEnvList(env, io);
  registerEnvVersions(env, io);
  registerEnvInspect(env, io);
  registerEnvDelete(env, io);
  registerEnvVisibility(env, io);
  registerEnvServe(env, io);
  registerEnvTasks(env, io);
  registerEnvTools(env, io);
}
