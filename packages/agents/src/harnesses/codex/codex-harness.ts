/**
 * Codex (`@openai/codex`, OpenAI's agent CLI) as a harness. It speaks OpenAI Responses to the
 * interception server through a model provider of its own in ~/.codex/config.toml (`wire_api =
 * "responses"`, the base URL, and the variable its key is read from, which holds the rollout's
 * secret), with the rollout's model name. It runs headless (`codex exec`, the prompt on stdin)
 * outside a git repository, with no approvals and no sandbox of its own
 * (`--dangerously-bypass-approvals-and-sandbox`: the runtime confines it), no saved session, and
 * the config checked strictly, so a key a new release no longer reads fails loudly. Analytics,
 * feedback, OpenTelemetry, the update check, and the plugin and app catalogs (which reach
 * github.com and chatgpt.com at start) are off: its only connection is to the interception server.
 *
 * @example
 * const harness = codexHarness();
 * await harness.prepare({ cacheDir: join(homedir(), ".cache", "vf", "harnesses") });
 */
import type { HarnessContext } from "@vf-rl/core/agents";
import { type CliLaunch, type NpmCliHarness, npmCliHarness, promptText } from "../npm-cli/npm-cli-harness.ts";

/** The Codex release vf runs (`npm view @openai/codex version`, 2026-11-27). */
export const CODEX_VERSION = "0.171.0";

/** Options of `codexHarness`. */
export interface CodexHarnessOptions {
  /** An exact release to run instead of `CODEX_VERSION` (its config keys may differ). */
  version?: string;
}

/** The variable Codex reads the rollout's secret from (the provider's `env_key`). */
const KEY_VARIABLE = "VF_API_KEY";

/** The Codex harness; see the file comment. */
export function codexHarness(options: CodexHarnessOptions = {}): NpmCliHarness {
  return npmCliHarness({
    id: "codex",
    api: "openai_responses",
    package: "@openai/codex",
    version: options.version ?? CODEX_VERSION,
    bin: "codex",
    launch: codexLaunch,
  });
}

function codexLaunch({ task, model, mcpUrls }: HarnessContext): CliLaunch {
  const { system, request } = promptText(task.prompt);
  return {
    args: [
      "exec",
      "--skip-git-repo-check",
      "--ephemeral",
      "--strict-config",
      "--dangerously-bypass-approvals-and-sandbox",
      "--color",
      "never",
      "-",
    ],
    stdin: request,
    env: { [KEY_VARIABLE]: model.apiKey },
    homeFiles: { ".codex/config.toml": codexConfig(model, system, mcpUrls) },
  };
}

/** ~/.codex/config.toml for one rollout (TOML's basic strings read JSON's escapes). */
function codexConfig(model: HarnessContext["model"], system: string, mcpUrls: readonly string[]): string {
  const s = (text: string) => JSON.stringify(text);
  const lines = [`model = ${s(model.name)}`, `model_provider = "vf"`, "check_for_update_on_startup = false"];
  if (system !== "") lines.push(`developer_instructions = ${s(system)}`);
  lines.push(
    "",
    "[model_providers.vf]",
    `name = "vf interception server"`,
    `base_url = ${s(model.baseUrl)}`,
    `env_key = ${s(KEY_VARIABLE)}`,
    `wire_api = "responses"`,
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[feedback]",
    "enabled = false",
    "",
    "[otel]",
    `exporter = "none"`,
    "",
    "[features]",
    // The plugin marketplace and the connectors' catalog are fetched from github.com and chatgpt.com.
    "plugins = false",
    "remote_plugin = false",
    "apps = false",
  );
  mcpUrls.forEach((url, i) => {
    lines.push("", `[mcp_servers.vf-${i}]`, `url = ${s(url)}`);
  });
  return `${lines.join("\n")}\n`;
}
