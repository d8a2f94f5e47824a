/**
 * An agent program: the plain chat loop, vf's small bash agent, or a real agent CLI (Claude Code,
 * Codex, pi, ...). It never calls a model itself: it is pointed at the interception server, in the
 * API it speaks, with a per-rollout secret as its key, and works on the task in its runtime.
 */
import type { AgentTask } from "./agent-task.ts";
import type { Runtime } from "./runtime.ts";

/** The model APIs an agent may speak to the interception server. */
export type AgentApi = "openai_chat_completions" | "openai_responses" | "anthropic_messages";

/** Where the harness's model traffic goes. */
export interface AgentModel {
  /** The interception server's base URL in the harness's API (ending in /v1 for OpenAI's). */
  baseUrl: string;
  /** The rollout's secret: the key the harness sends, so its calls land in its own trace. */
  apiKey: string;
  /** The model name the harness should request (the interception server serves only this one). */
  name: string;
}

/** What a harness gets for one rollout. */
export interface HarnessContext {
  task: AgentTask;
  runtime: Runtime;
  model: AgentModel;
  /** MCP servers' URLs the task's tools are served at, if any. */
  mcpUrls: readonly string[];
  signal: AbortSignal;
}

/** How the program ended. */
export interface HarnessResult {
  exitCode: number | null;
  /** What it printed last (for traces and errors). */
  output: string;
}

/** An agent program; see the file comment. */
export interface Harness {
  /** Its name, e.g. "bash", "claude-code". */
  readonly id: string;
  readonly api: AgentApi;
  /** Installs or finds the program once (e.g. an npm package into vf's cache); default nothing. */
  prepare?(options: { cacheDir: string; signal?: AbortSignal }): Promise<void>;
  /** Runs the program on the task until it ends, is cancelled, or its time is up. */
  run(context: HarnessContext): Promise<HarnessResult>;
}
