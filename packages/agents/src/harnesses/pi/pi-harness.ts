/**
 * pi (`@mariozechner/pi-coding-agent`, Mario Zechner's minimal coding agent) as a harness. It speaks
 * chat completions to the interception server as a custom provider in ~/.pi/agent/models.json
 * (`api: "openai-completions"`, the base URL, and the variable its key is read from, which holds
 * the rollout's secret), with the rollout's model as the provider's one model; the system prompt
 * goes as `system`, not `developer`, and no reasoning effort is sent. It runs headless (`pi -p`,
 * the prompt on stdin) with its built-in tools (read, bash, edit, write), which ask no permission,
 * and no saved session. Offline mode turns off its startup network (the version check, package
 * update checks, install telemetry), and the install telemetry is also off in its settings: its
 * only connection is to the interception server. pi has no MCP client, so a task with MCP tools is
 * refused rather than run without them.
 *
 * @example
 * const harness = piHarness();
 * await harness.prepare({ cacheDir: join(homedir(), ".cache", "vf", "harnesses") });
 */
import type { HarnessContext } from "@vf-rl/core/agents";
import { UserError } from "@vf-rl/core/errors";
import { type CliLaunch, type NpmCliHarness, npmCliHarness, promptText } from "../npm-cli/npm-cli-harness.ts";

/** The pi release vf runs (`npm view @mariozechner/pi-coding-agent version`, 2026-11-27). */
export const PI_VERSION = "0.73.1";

/** Options of `piHarness`. */
export interface PiHarnessOptions {
  /** An exact release to run instead of `PI_VERSION` (its flags may differ). */
  version?: string;
}

/** The variable pi reads the rollout's secret from (the provider's `apiKey` names it). */
const KEY_VARIABLE = "VF_API_KEY";

/** The pi harness; see the file comment. */
export function piHarness(options: PiHarnessOptions = {}): NpmCliHarness {
  return npmCliHarness({
    id: "pi",
    api: "openai_chat_completions",
    package: "@mariozechner/pi-coding-agent",
    version: options.version ?? PI_VERSION,
    bin: "pi",
    launch: piLaunch,
  });
}

function piLaunch({ task, model, mcpUrls }: HarnessContext): CliLaunch {
  if (mcpUrls.length > 0) {
    throw new UserError(
      `pi has no MCP client, so task ${task.id}'s MCP tools (${mcpUrls.join(", ")}) cannot be offered to it: run it with a harness that has one (bash, chat, claude-code, codex, opencode)`,
    );
  }
  const { system, request } = promptText(task.prompt);
  const args = ["-p", "--provider", "vf", "--model", model.name, "--no-session"];
  if (system !== "") args.push("--append-system-prompt", system);
  const models = {
    providers: {
      vf: {
        baseUrl: model.baseUrl,
        api: "openai-completions",
        apiKey: KEY_VARIABLE,
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: model.name }],
      },
    },
  };
  return {
    args,
    stdin: request,
    env: { [KEY_VARIABLE]: model.apiKey, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" },
    homeFiles: {
      ".pi/agent/models.json": `${JSON.stringify(models, null, 2)}\n`,
      ".pi/agent/settings.json": `${JSON.stringify({ enableInstallTelemetry: false }, null, 2)}\n`,
    },
  };
}
