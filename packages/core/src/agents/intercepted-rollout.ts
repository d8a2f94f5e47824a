/**
 * One rollout registered with the interception server: its model route, the host's sampling
 * overrides and the task's limits, the tool-result hook, and the trace built as calls happen. The
 * server hands each authenticated request here as a chat request; what comes back is the model's
 * response or the error the agent is answered with. It holds no HTTP: see interception-server.ts.
 */
import type { ChatRequest, ModelClient, ModelResponse, SamplingArgs } from "../client/model-client.ts";
import type { DialectApi, DialectRequest } from "../dialects/index.ts";
import { OverlongPromptError } from "../errors.ts";
import type { TaskLimits } from "./agent-task.ts";
import type { AgentCall, AgentStop, AgentTrace } from "./agent-trace.ts";
import { MessageGraph } from "./message-graph.ts";
import { type ToolResultEdit, ToolResultFilter, type ToolResultHook } from "./tool-result-hook.ts";

/** What a host registers a rollout with. */
export interface RolloutRegistration {
  /** Where the rollout's calls go: any client of core/client (createModelClient, createReplicaClient, ...). */
  client: ModelClient;
  /** The model name sent to `client`, whatever name the agent asks for. */
  model: string;
  /** The model name the agent is told to ask for and GET /v1/models lists; default `model`. */
  servedModel?: string;
  /**
   * Sampling set over what the agent sends (temperature, max_tokens, seed, return_token_ids, ...),
   * in the chat-completions spelling; a null value removes the agent's field. Default none.
   */
  sampling?: SamplingArgs;
  /** The task's limits; an unset one is no bound. Past one, calls are answered with an error. */
  limits?: Partial<TaskLimits>;
  /** Sees each tool result before the model does; see tool-result-hook.ts. */
  onToolResult?: ToolResultHook;
}

/** How the program ended, as the host saw it. */
export interface RolloutEnd {
  exitCode?: number | null;
  output?: string;
  /** Overrides the stop the server recorded (default: a limit reached, else agent_completed). */
  stop?: AgentStop;
}

/** What a call comes to: the model's response, or the error the agent is answered with. */
export type CallOutcome =
  | { type: "response"; response: ModelResponse }
  | { type: "error"; status: number; message: string };

/** A limit reached, the stop it records and the message the agent reads. */
interface LimitReached {
  stop: AgentStop;
  message: string;
}

/** A registered rollout; see the file comment. */
export class InterceptedRollout {
  readonly servedModel: string;
  /** By the order calls started; a call in flight leaves its slot empty. */
  private readonly calls: Array<AgentCall | undefined> = [];
  private readonly graph = new MessageGraph();
  private readonly errors: AgentTrace["errors"] = [];
  private readonly filter: ToolResultFilter | null;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timer: NodeJS.Timeout | undefined;
  private limit: LimitReached | null = null;
  private started = 0;
  private completionTokens = 0;
  private ended: AgentTrace | null = null;
  private closing = false;

  constructor(
    readonly id: string,
    readonly secret: string,
    private readonly registration: RolloutRegistration,
    /** Called once when `end` starts: the server forgets the secret. */
    private readonly onEnd: () => void = () => {},
  ) {
    this.servedModel = registration.servedModel ?? registration.model;
    this.filter = registration.onToolResult ? new ToolResultFilter(registration.onToolResult) : null;
    const seconds = registration.limits?.timeSeconds;
    if (seconds !== undefined) {
      this.timer = setTimeout(() => {
        this.reach({ stop: "timeout", message: `the run's time limit of ${seconds} s is up` });
        this.abort.abort();
      }, seconds * 1000);
      this.timer.unref();
    }
  }

  /** Forwards one call of the agent's (read by its dialect) and records it. */
  call(request: DialectRequest, api: DialectApi, signal: AbortSignal): Promise<CallOutcome> {
    const done = this.forward(request, api, signal);
    this.inFlight.add(done);
    return done.finally(() => this.inFlight.delete(done));
  }

  private async forward(request: DialectRequest, api: DialectApi, signal: AbortSignal): Promise<CallOutcome> {
    const refused = this.limit ?? this.checkLimits();
    if (refused) return { type: "error", status: 400, message: `vf ended this run: ${refused.message}` };
    const index = this.started++;
    let messages = request.messages;
    if (this.filter) {
      try {
        messages = await this.filter.apply(messages, index);
      } catch (error) {
        // The host's hook failed: the call is not forwarded, and asked again at the next call.
        const message = `the tool-result hook failed: ${error instanceof Error ? error.message : String(error)}`;
        this.errors.push({ type: "ToolResultHookError", message: `call ${index}: ${message}` });
        return { type: "error", status: 500, message };
      }
    }
    const sampling = this.sampling(request.sampling);
    const tools = request.tools ?? [];
    const chat: ChatRequest = {
      model: this.registration.model,
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      sampling,
    };
    const start = Date.now();
    const dropped = request.dropped ?? [];
    const base = {
      api,
      model: request.model,
      stream: request.stream,
      messages,
      tools,
      dropped,
      sampling,
      start,
    };
    let response: ModelResponse;
    try {
      response = await this.registration.client.chat(chat, {
        signal: AbortSignal.any([this.abort.signal, signal]),
      });
    } catch (error) {
      const failure = this.failure(error, signal);
      this.calls[index] = {
        ...base,
        reply: null,
        finishReason: null,
        usage: null,
        tokens: null,
        node: null,
        end: Date.now(),
        error: failure.message,
      };
      this.errors.push({ type: failure.type, message: `call ${index}: ${failure.message}` });
      return { type: "error", status: failure.status, message: failure.message };
    }
    const end = Date.now();
    const node = this.graph.commitTurn({
      prompt: messages,
      completion: response.message,
      tokens: response.tokens,
      timestamp: end / 1000,
    });
    this.completionTokens += response.usage.completionTokens;
    this.calls[index] = {
      ...base,
      reply: response.message,
      finishReason: response.finishReason,
      usage: response.usage,
      tokens: response.tokens,
      node,
      end,
      error: null,
    };
    return { type: "response", response };
  }

  /** The agent's sampling with the host's over it; the token budget left caps max_tokens. */
  private sampling(agent: SamplingArgs): SamplingArgs {
    const sampling: SamplingArgs = { ...agent };
    for (const [key, value] of Object.entries(this.registration.sampling ?? {})) {
      if (value === null) delete sampling[key];
      else sampling[key] = value;
    }
    const budget = this.registration.limits?.maxCompletionTokens;
    if (budget !== undefined) {
      const left = budget - this.completionTokens;
      const asked = typeof sampling.max_tokens === "number" ? sampling.max_tokens : Number.POSITIVE_INFINITY;
      sampling.max_tokens = Math.min(asked, left);
    }
    return sampling;
  }

  /** The limit this call would pass, if any, recorded as the run's stop. */
  private checkLimits(): LimitReached | null {
    const { maxTurns, maxCompletionTokens } = this.registration.limits ?? {};
    if (maxTurns !== undefined && this.started >= maxTurns) {
      return this.reach({
        stop: "max_turns",
        message: `the task's limit of ${maxTurns} model calls is reached`,
      });
    }
    if (maxCompletionTokens !== undefined && this.completionTokens >= maxCompletionTokens) {
      return this.reach({
        stop: "max_completion_tokens",
        message: `the task's limit of ${maxCompletionTokens} completion tokens is reached (${this.completionTokens} used)`,
      });
    }
    return null;
  }

  private reach(limit: LimitReached): LimitReached {
    if (this.limit === null) {
      this.limit = limit;
      this.errors.push({ type: limit.stop, message: limit.message });
    }
    return this.limit;
  }

  /** How a failed call is answered: the upstream's status where the agent should act on it. */
  private failure(error: unknown, signal: AbortSignal): { type: string; status: number; message: string } {
    const type = error instanceof Error ? error.name : "Error";
    const text = error instanceof Error ? error.message : String(error);
    if (this.limit?.stop === "timeout") {
      return { type: "timeout", status: 400, message: `vf ended this run: ${this.limit.message}` };
    }
    if (signal.aborted) return { type: "cancelled", status: 499, message: "the agent closed the connection" };
    if (this.abort.signal.aborted) return { type: "cancelled", status: 400, message: "vf ended this run" };
    // Anthropic's words, which Claude Code reads as a cue to compact its context.
    if (error instanceof OverlongPromptError)
      return { type, status: 400, message: `prompt is too long: ${text}` };
    const status = (error as { status?: unknown }).status;
    if (status === 429) return { type, status: 429, message: text };
    if (typeof status === "number" && status >= 400 && status < 500 && status !== 401 && status !== 403) {
      return { type, status: 400, message: text };
    }
    // The upstream refused the host's key, failed or could not be reached: not the agent's doing.
    return { type, status: 502, message: text };
  }

  /** The trace so far (a copy of its lists; the calls and messages themselves are shared). */
  trace(): AgentTrace {
    if (this.ended) return this.ended;
    return this.snapshot({});
  }

  private snapshot(end: RolloutEnd): AgentTrace {
    const edits: ToolResultEdit[] = this.filter ? [...this.filter.edits] : [];
    return {
      calls: this.calls.filter((call): call is AgentCall => call !== undefined),
      nodes: [...this.graph.nodes],
      toolResults: edits,
      stop: end.stop ?? this.limit?.stop ?? "agent_completed",
      errors: [...this.errors],
      exitCode: end.exitCode ?? null,
      output: end.output ?? "",
    };
  }

  /**
   * Ends the rollout: its secret is refused from now on, calls in flight are cancelled and
   * recorded, and the final trace is returned (the same on every later call).
   */
  async end(result: RolloutEnd = {}): Promise<AgentTrace> {
    if (this.ended) return this.ended;
    if (!this.closing) {
      this.closing = true;
      this.onEnd();
    }
    clearTimeout(this.timer);
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
    this.ended ??= this.snapshot(result);
    return this.ended;
  }
}
