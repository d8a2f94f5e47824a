/**
 * Claude Code (`@anthropic-ai/claude-code`, Anthropic's agent CLI) as a harness. It speaks
 * Anthropic Messages to the interception server: `ANTHROPIC_BASE_URL` is the server, the rollout's
 * secret is `ANTHROPIC_API_KEY` (an API key needs no login in print mode), and every model tier it
 * may pick (main loop, subagents, the small fast model) is the rollout's model name. It runs
 * headless (`claude -p`, the prompt on stdin), with every permission granted
 * (`--dangerously-skip-permissions`, `IS_SANDBOX=1` so it also runs as root: the runtime confines
 * it), no saved session, and the task's MCP servers only, every tool offered up front (no
 * ToolSearch, which a model not trained on Claude Code would not know to call). Telemetry, error reporting, the
 * auto-updater and all other non-essential traffic are off: its only connection is to the
 * interception server.
 *
 * @example
 * const harness = claudeCodeHarness();
 * await harness.prepare({ cacheDir: join(homedir(), ".cache", "vf", "harnesses") });
 */
import type { HarnessContext } from "@vf-rl/core/agents";
import { type CliLaunch, type NpmCliHarness, npmCliHarness, promptText } from "../npm-cli/npm-cli-harness.ts";

/** The Claude Code release vf runs (`npm view @anthropic-ai/claude-code version`, 2026-11-27). */
export const CLAUDE_CODE_VERSION = "2.1.332";

/** Options of `claudeCodeHarness`. */
export interface ClaudeCodeHarnessOptions {
  /** An exact release to run instead of `CLAUDE_CODE_VERSION` (its flags may differ). */
  version?: string;
}

/** The Claude Code harness; see the file comment. */
export function claudeCodeHarness(options: ClaudeCodeHarnessOptions = {}): NpmCliHarness {
  return npmCliHarness({
    id: "claude-code",
    api: "anthropic_messages",
    package: "@anthropic-ai/claude-code",
    version: options.version ?? CLAUDE_CODE_VERSION,
    bin: "claude",
    launch: claudeCodeLaunch,
  });
}

function claudeCodeLaunch({ task, model, mcpUrls }: HarnessContext): CliLaunch {
  const { system, request } = promptText(task.prompt);
  const args = ["-p", "--model", model.name, "--dangerously-skip-permissions", "--no-session-persistence"];
  if (system !== "") args.push("--append-system-prompt", system);
  // Only the task's tools: no MCP servers from a project's or the user's settings.
  const servers = Object.fromEntries(mcpUrls.map((url, i) => [`vf-${i}`, { type: "http", url }]));
  args.push("--strict-mcp-config", "--mcp-config", JSON.stringify({ mcpServers: servers }));
  return {
    args,
    stdin: request,
    env: {
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: model.apiKey,
      // Subagents and the background model calls ask for these tiers: all are the rollout's model.
      ANTHROPIC_DEFAULT_OPUS_MODEL: model.name,
      ANTHROPIC_DEFAULT_SONNET_MODEL: model.name,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: model.name,
      CLAUDE_CODE_SUBAGENT_MODEL: model.name,
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // Every tool (the task's MCP tools included) offered up front, not behind its ToolSearch tool,
      // which a model not trained on Claude Code would not know to call first.
      ENABLE_TOOL_SEARCH: "false",
      // Claude Code refuses to skip permissions as root unless told it is in a sandbox.
      IS_SANDBOX: "1",
    },
  };
}
