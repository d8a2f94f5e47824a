/**
 * verifiers' v1 environment-server protocol (verifiers/v1/serve at a60a606ec): a client's DEALER
 * sends `[request_id, method, msgpack(body)]`, the server's ROUTER answers `[request_id,
 * msgpack(reply)]` in any order, every reply holding `success` and `error`.
 *
 *   health  {}                                    -> {success, error}
 *   run     {task_data, client, model, sampling}  -> {success, error, episode}
 *   cancel  {request_id}                          -> {success, error, cancelled}
 *   tasks   {split?, num_examples?}               -> {success, error, tasks, env_id}   (vf's own)
 *   stats   {}                                    -> {success, error, ...StatsReply}   (vf's own)
 *
 * These schemas read what a Python client sends (pydantic's JSON-mode dumps, nulls included).
 */
import { z } from "zod";
import type { Episode } from "../episode/episode.ts";
import type { TaskData } from "./task-data.ts";
import { pythonStringRepr } from "./wire-error.ts";

/** verifiers' default endpoint when a client config names none. */
export const PRIME_INFERENCE_URL = "https://api.pinference.ai/api/v1";

/**
 * `ClientConfig`: the endpoint the server's rollouts call. `type: "train"` asks the endpoint for
 * token ids and logprobs (vLLM's fields) on every call; the renderer fields verifiers' train client
 * uses are accepted and ignored (vf calls chat completions, not `/inference/v1/generate`).
 */
export const ClientConfigV1 = z.looseObject({
  type: z.enum(["eval", "train"]).default("eval"),
  base_url: z.string().default(PRIME_INFERENCE_URL),
  api_key_var: z.string().default("PRIME_API_KEY"),
  headers: z.record(z.string(), z.string()).nullish(),
});
export type ClientConfigV1 = z.infer<typeof ClientConfigV1>;

/** `SamplingConfig`: temperature, top_p, reasoning_effort, max_tokens, plus anything passed through. */
export const SamplingConfigV1 = z.record(z.string(), z.unknown());

export const RunRequest = z.object({
  task_data: z.record(z.string(), z.unknown()),
  client: ClientConfigV1,
  model: z.string().min(1),
  sampling: SamplingConfigV1.nullish(),
});
export type RunRequest = z.infer<typeof RunRequest>;

export const CancelRequest = z.object({ request_id: z.string() });
export type CancelRequest = z.infer<typeof CancelRequest>;

/** vf's extra method: the environment's rows as task data, so a client that owns data loading can get them. */
export const TasksRequest = z.object({
  split: z.enum(["train", "eval"]).default("train"),
  /** Rows to return; -1 or absent: all. */
  num_examples: z.number().int().min(-1).nullish(),
});
export type TasksRequest = z.infer<typeof TasksRequest>;

/** The methods a v1 request may name. */
export const V1_METHODS = ["health", "run", "cancel", "tasks", "stats"] as const;
/** One of `V1_METHODS`. */
export type V1Method = (typeof V1_METHODS)[number];

/** Whether `method` is one a v1 request may name. */
export function isV1Method(method: string): method is V1Method {
  return (V1_METHODS as readonly string[]).includes(method);
}

/**
 * vf's extra method `stats`: what the server holds now, answered by the front end like health (for
 * operators and tests). Counts of runs, not bytes.
 */
export const StatsReply = z.object({
  success: z.literal(true),
  error: z.null(),
  /** The version of vf serving (`@vf-rl/env-server`'s), e.g. "0.1.0". */
  vf_version: z.string(),
  /** `running`, or `draining` after SIGTERM. */
  state: z.enum(["running", "draining"]),
  /** The worker processes now; `active`: runs and tasks requests each holds. */
  workers: z.array(
    z.object({
      index: z.number().int(),
      pid: z.number().int().nullable(),
      ready: z.boolean(),
      active: z.number().int(),
    }),
  ),
  /** Runs accepted and not yet answered, waiting for a worker or running in one. */
  accepted: z.number().int(),
  /** Of those, the runs waiting for a worker. */
  queued: z.number().int(),
  /** Runs (and tasks requests) accepted since the start. */
  runs_accepted: z.number().int(),
  /** Runs refused since the start: draining, busy, a duplicate id, a client not reading its replies, too large. */
  runs_refused: z.number().int(),
  /** Replies waiting in the server for clients whose ZeroMQ queue is full (clients not reading). */
  held_replies: z.number().int(),
  /** Clients with replies held. */
  backlogged_clients: z.number().int(),
  /** Replies dropped since the start because their client was not reading. */
  dropped_replies: z.number().int(),
  /** The bounds: runs per worker, runs waiting for a worker, replies ZeroMQ queues per client, bytes per request. */
  limits: z.object({
    max_concurrent: z.number().int(),
    max_queued: z.number().int(),
    max_queued_replies: z.number().int(),
    max_message_bytes: z.number().int(),
  }),
});
export type StatsReply = z.infer<typeof StatsReply>;

/** The reply to a request that failed, in either protocol: verifiers' error text. */
export interface FailedReply {
  success: false;
  error: string;
}

/** A failed reply carrying `error`. */
export function failedReply(error: string): FailedReply {
  return { success: false, error };
}

/** What each v1 method answers when it succeeds. */
export interface V1Replies {
  health: { success: true; error: null };
  run: { success: true; error: null; episode: Episode };
  cancel: { success: true; error: null; cancelled: boolean };
  tasks: { success: true; error: null; env_id: string; tasks: TaskData[] };
  stats: StatsReply;
}

/** The reply to a request naming `M`: its success, or a failure. */
export type V1Reply<M extends V1Method = V1Method> = V1Replies[M] | FailedReply;

/** The reply to an aborted run, as verifiers words it. */
export const CANCELLED_ERROR = "Cancelled: rollout aborted";

/** verifiers' reply to an unknown method (Python's repr of the method name). */
export function unknownMethodError(method: string): string {
  return `unknown method ${pythonStringRepr(method)}`;
}
