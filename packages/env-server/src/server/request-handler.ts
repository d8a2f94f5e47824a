/**
 * A worker's answers to the requests the broker forwards: v1 `run`, `cancel`, `tasks` (and
 * `health`), and v0 `run_rollout`/`run_group` and their cancels. Every failure becomes a reply with
 * `success: false` and verifiers' error text; nothing a client sends can crash the worker. A run is
 * registered for cancelling the moment it arrives, before any await, so a cancel that follows it on
 * the same connection always finds it.
 */
import { CancelledError, type Environment, type RolloutInput, UserError } from "@vf-rl/core";
import { type ApiClientType, ClientLeases, type EndpointConfig, type SamplingArgs } from "@vf-rl/core/client";
import { z } from "zod";
import { buildEpisode } from "../episode/build-episode.ts";
import { pack, unpack } from "../wire/encoding.ts";
import { toRolloutOutput } from "../wire/rollout-output.ts";
import { fromTaskData, readInfo, toTaskData } from "../wire/task-data.ts";
import {
  type ClientConfigV0,
  RunGroupRequest,
  RunRolloutRequest,
  unknownRequestTypeError,
  V0_CANCELLED_ERROR,
  type V0Replies,
} from "../wire/v0-protocol.ts";
import {
  CANCELLED_ERROR,
  CancelRequest,
  type ClientConfigV1,
  type FailedReply,
  failedReply,
  isV1Method,
  RunRequest,
  TasksRequest,
  unknownMethodError,
  type V1Replies,
  type V1Reply,
} from "../wire/v1-protocol.ts";
import { v0ErrorText, v1ErrorText } from "../wire/wire-error.ts";
import { fromWireMessages } from "../wire/wire-messages.ts";
import { runRollouts } from "./run-rollouts.ts";

/** A request body that does not parse (pydantic's name for it, as verifiers' replies say). */
export class ValidationError extends Error {
  override readonly name = "ValidationError";
}

/** A payload that is not msgpack. */
export class MalformedPayloadError extends Error {
  override readonly name = "MalformedPayloadError";
}

/** What a worker serves. */
export interface RequestHandlerOptions {
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  /** The id the environment was loaded by, as replies and episodes name it. */
  envId: string;
  /** The environment package's sampling defaults, under the request's own. */
  samplingDefaults?: SamplingArgs;
  /** Named on every trace (`Trace.verifiers.version`). */
  producer: string;
  /** The variables whose values runs may have sent as API keys; default none (core's ClientLeases). */
  keyVars?: readonly string[];
  /** One line to the server's log. */
  log?: (line: string) => void;
}

export class RequestHandler {
  private readonly running = new Map<string, AbortController>();
  private readonly clients: ClientLeases;

  constructor(private readonly options: RequestHandlerOptions) {
    this.clients = new ClientLeases({
      refusedKey: (name) =>
        `${name}, which this env server does not send (start it with --key-var ${name} to allow it)`,
      refusalLine: (name, baseUrl) =>
        `a run named the key variable ${JSON.stringify(name)} for ${JSON.stringify(baseUrl)}: its value was not sent (only --key-var variables are; the key sent was "EMPTY"): to send it, restart vf env serve with --key-var ${JSON.stringify(name)}`,
      ...(options.keyVars ? { keyVars: options.keyVars } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  }

  /** Rollouts running now. */
  get active(): number {
    return this.running.size;
  }

  /** Answers one v1 request; the reply is packed. */
  async v1(requestId: string, method: string, payload: Uint8Array): Promise<Uint8Array> {
    const abort = method === "run" ? this.register(requestId) : undefined;
    try {
      return pack(await this.v1Reply(method, payload, abort?.signal));
    } catch (error) {
      const text =
        error instanceof CancelledError || abort?.signal.aborted ? CANCELLED_ERROR : v1ErrorText(error);
      return pack(failedReply(text));
    } finally {
      if (abort) this.running.delete(requestId);
    }
  }

  /** Answers one v0 request; an empty payload cancels `requestId` and gets no reply (the run answers). */
  async v0(requestId: string, payload: Uint8Array): Promise<Uint8Array | undefined> {
    if (payload.length === 0) {
      this.cancel(requestId);
      return undefined;
    }
    const abort = this.register(requestId);
    try {
      return pack(await this.v0Reply(payload, abort.signal));
    } catch (error) {
      const text =
        error instanceof CancelledError || abort.signal.aborted ? V0_CANCELLED_ERROR : v0ErrorText(error);
      return pack(failedReply(text));
    } finally {
      this.running.delete(requestId);
    }
  }

  /** Aborts a running request; false when none runs under that id. */
  cancel(requestId: string): boolean {
    const running = this.running.get(requestId);
    running?.abort(new CancelledError("rollout aborted"));
    return running !== undefined;
  }

  /** Aborts every running request and closes the model clients. */
  async close(): Promise<void> {
    for (const id of [...this.running.keys()]) this.cancel(id);
    await this.clients.close();
  }

  private register(requestId: string): AbortController {
    const abort = new AbortController();
    this.running.set(requestId, abort);
    return abort;
  }

  private async v1Reply(method: string, payload: Uint8Array, signal?: AbortSignal): Promise<V1Reply> {
    if (!isV1Method(method)) return failedReply(unknownMethodError(method));
    switch (method) {
      case "health":
        return { success: true, error: null };
      case "cancel": {
        const { request_id } = parse(CancelRequest, decode(payload), "CancelRequest");
        return { success: true, error: null, cancelled: this.cancel(request_id) };
      }
      case "tasks":
        return this.tasks(parse(TasksRequest, decode(payload), "TasksRequest"));
      case "run":
        return this.run(parse(RunRequest, decode(payload), "RunRequest"), signal!);
      case "stats":
        // The front end answers stats itself, with the pool's numbers; a worker has none to give.
        return failedReply(unknownMethodError(method));
    }
  }

  private async tasks(request: TasksRequest): Promise<V1Replies["tasks"]> {
    const { inputs } = await this.options.env.inputs({
      split: request.split,
      numExamples: request.num_examples ?? -1,
      rolloutsPerExample: 1,
    });
    return { success: true, error: null, env_id: this.options.envId, tasks: inputs.map(toTaskData) };
  }

  private async run(request: RunRequest, signal: AbortSignal): Promise<V1Replies["run"]> {
    const { env } = this.options;
    if (env.rubric.requiresGroup()) {
      throw new UserError(
        `environment "${this.options.envId}" scores rollouts in groups (it has group reward functions), which one v1 run cannot: serve it to v0 run_group clients`,
      );
    }
    const { input, timeoutSeconds } = fromTaskData(request.task_data);
    const sampling = this.sampling(v1Sampling(request.sampling ?? {}));
    const [finished] = await runRollouts({
      env,
      clients: this.clients,
      endpoint: v1Endpoint(request.client),
      wantTokens: request.client.type === "train",
      inputs: [input],
      model: request.model,
      sampling,
      independent: true,
      maxRetries: 0,
      stateColumns: [],
      signal,
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    });
    const episode = buildEpisode(finished!, {
      env,
      envId: this.options.envId,
      taskData: request.task_data,
      model: request.model,
      sampling,
      producer: this.options.producer,
    });
    return { success: true, error: null, episode };
  }

  private async v0Reply(
    payload: Uint8Array,
    signal: AbortSignal,
  ): Promise<V0Replies["run_rollout" | "run_group"] | FailedReply> {
    const raw = decode(payload);
    const type = (raw as { request_type?: unknown } | null)?.request_type;
    if (type !== "run_rollout" && type !== "run_group") return failedReply(unknownRequestTypeError(type));
    const request =
      type === "run_rollout"
        ? parse(RunRolloutRequest, raw, "RunRolloutRequest")
        : parse(RunGroupRequest, raw, "RunGroupRequest");
    const wire = request.request_type === "run_rollout" ? [request.input] : request.group_inputs;
    const inputs: RolloutInput[] = wire.map((row, i) => ({
      exampleId: row.example_id,
      rolloutIndex: i,
      prompt:
        typeof row.prompt === "string"
          ? [{ role: "user", content: row.prompt }]
          : fromWireMessages(row.prompt),
      answer: row.answer ?? "",
      info: readInfo(row.info),
      task: row.task ?? "default",
    }));
    const { endpoint, wantTokens } = v0Endpoint(request.client_config);
    const stateColumns = request.state_columns ?? [];
    const finished = await runRollouts({
      env: this.options.env,
      clients: this.clients,
      endpoint,
      wantTokens,
      inputs,
      model: request.model,
      sampling: this.sampling(request.sampling_args ?? {}),
      independent: request.request_type === "run_rollout",
      maxRetries: request.max_retries,
      stateColumns: stateColumns.filter((c) => c !== "trajectory"),
      signal,
    });
    const outputs = finished.map((rollout) => toRolloutOutput(rollout, stateColumns));
    return request.request_type === "run_rollout"
      ? { success: true, error: null, output: outputs[0]! }
      : { success: true, error: null, outputs };
  }

  private sampling(requested: SamplingArgs): SamplingArgs {
    return { ...this.options.samplingDefaults, ...requested };
  }
}

function decode(payload: Uint8Array): unknown {
  try {
    return unpack(payload);
  } catch (error) {
    throw new MalformedPayloadError(
      `the payload is not msgpack (${error instanceof Error ? error.message : String(error)}): pack the request body with msgpack`,
    );
  }
}

function parse<T extends z.ZodType>(schema: T, value: unknown, name: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationError(`invalid ${name}: ${z.prettifyError(parsed.error).replaceAll("\n", "; ")}`);
}

/** v1 sampling without its nulls; `max_completion_tokens` is an alias of `max_tokens`, as in verifiers. */
function v1Sampling(sampling: Record<string, unknown>): SamplingArgs {
  const out: SamplingArgs = {};
  for (const [key, value] of Object.entries(sampling))
    if (value !== null && value !== undefined) out[key] = value;
  if (out.max_tokens === undefined && out.max_completion_tokens !== undefined) {
    out.max_tokens = out.max_completion_tokens;
    delete out.max_completion_tokens;
  }
  return out;
}

function v1Endpoint(client: ClientConfigV1): EndpointConfig {
  return { baseUrl: client.base_url, apiKeyVar: client.api_key_var, headers: client.headers ?? {} };
}

/**
 * The API of each verifiers client type vf serves: its own name, but for the token variant of chat
 * completions and the renderer client (chat completions with vLLM's token fields, see the README).
 */
const V0_CLIENT_TYPES: Record<string, ApiClientType> = {
  openai_chat_completions: "openai_chat_completions",
  openai_chat_completions_token: "openai_chat_completions",
  renderer: "openai_chat_completions",
  openai_completions: "openai_completions",
  openai_responses: "openai_responses",
  anthropic_messages: "anthropic_messages",
};

/** The endpoint of a v0 client config: `client_idx` picks among `endpoint_configs`, as verifiers resolves it. */
function v0Endpoint(config: ClientConfigV0): { endpoint: EndpointConfig; wantTokens: boolean } {
  const type = V0_CLIENT_TYPES[config.client_type];
  if (type === undefined) {
    throw new UserError(
      `client_type "${config.client_type}" is not served: use one of ${Object.keys(V0_CLIENT_TYPES).join(", ")}`,
    );
  }
  const endpoints = config.endpoint_configs ?? [];
  const chosen = endpoints.length > 0 ? endpoints[config.client_idx % endpoints.length]! : config;
  const timeout = chosen.timeout ?? config.timeout;
  const retries = chosen.max_retries ?? config.max_retries;
  return {
    endpoint: {
      type,
      baseUrl: chosen.api_base_url,
      apiKeyVar: chosen.api_key_var || null,
      headers: { ...config.extra_headers, ...chosen.extra_headers },
      ...(typeof timeout === "number" ? { timeoutSeconds: timeout } : {}),
      ...(typeof retries === "number" ? { maxRetries: retries } : {}),
    },
    wantTokens: config.client_type === "openai_chat_completions_token" || config.client_type === "renderer",
  };
}
