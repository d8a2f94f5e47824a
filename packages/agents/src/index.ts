/**
 * @vf-rl/agents: where agent programs run. Each factory implements core's `RuntimeFactory`; a
 * harness gets one runtime per rollout.
 *
 * - `localRuntime`: a Linux sandbox per exec (namespaces, a private read-only root, an ordinary
 *   user, limits, a system-call filter, no network but the interception server and the task's
 *   allowed hosts), in a private folder per rollout; nothing outlives it, nor vf.
 * - `containerRuntime`: a Docker or Podman container per rollout (no network of its own, no
 *   capabilities, limits), where an engine runs.
 * - `subprocessRuntime`: plain child processes in a folder, for debugging; isolates nothing.
 *
 * And vf's own harnesses (`HARNESSES`, by id): `bashHarness`, a small coding agent with a bash tool
 * that runs in the runtime, and `chatHarness`, the plain chat loop with the task's MCP tools. Real
 * agent CLIs from npm, installed at pinned versions into vf's cache by `prepare`: `claudeCodeHarness`,
 * `codexHarness`, `piHarness`, `opencodeHarness`; `npmCliHarness` makes one of any other.
 * `loadAgentEnv` loads a taskset (or an environment with a harness) by id as one `AgentEnv`.
 *
 * @example
 * import { localRuntime } from "@vf-rl/agents";
 * const runtime = await localRuntime().create(task, { interceptionUrl });
 * const { stdout } = await runtime.exec(["node", "--version"]);
 * await runtime.close();
 */

export { RUNTIME_TYPES, type RuntimeType } from "./config/agent-env-tables.ts";
export { ContainerRuntimeOptions, type ContainerRuntimeOptionsInput } from "./container/container-options.ts";
export { containerRuntime, findContainerEngine } from "./container/container-runtime.ts";
export { BASH_SYSTEM_PROMPT, BashHarnessOptions, bashHarness } from "./harnesses/bash/bash-harness.ts";
export { harnessCacheDir, harnessReadOnlyPaths } from "./harnesses/cache-dir.ts";
export { chatHarness } from "./harnesses/chat/chat-harness.ts";
export {
  CLAUDE_CODE_VERSION,
  type ClaudeCodeHarnessOptions,
  claudeCodeHarness,
} from "./harnesses/claude-code/claude-code-harness.ts";
export { CODEX_VERSION, type CodexHarnessOptions, codexHarness } from "./harnesses/codex/codex-harness.ts";
export { HARNESSES, harnessById } from "./harnesses/index.ts";
export { CliInstallError } from "./harnesses/npm-cli/cli-install.ts";
export {
  type CliLaunch,
  type NpmCliHarness,
  type NpmCliSpec,
  npmCliHarness,
  promptText,
} from "./harnesses/npm-cli/npm-cli-harness.ts";
export {
  OPENCODE_VERSION,
  type OpencodeHarnessOptions,
  opencodeHarness,
} from "./harnesses/opencode/opencode-harness.ts";
export { PI_VERSION, type PiHarnessOptions, piHarness } from "./harnesses/pi/pi-harness.ts";
export {
  type LoadAgentEnvOptions,
  type LoadedAgentEnv,
  loadAgentEnv,
} from "./load-agent-env.ts";
export { LocalRuntimeOptions, type LocalRuntimeOptionsInput } from "./local/local-options.ts";
export { localRuntime } from "./local/local-runtime.ts";
export { DEFAULT_PORTS, type NetworkPlan, networkPlan } from "./network/network-plan.ts";
export { SubprocessRuntimeOptions, subprocessRuntime } from "./subprocess/subprocess-runtime.ts";
