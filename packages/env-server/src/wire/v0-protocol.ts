/**
 * verifiers' v0 ("legacy") environment-server protocol (verifiers/legacy/serve at a60a606ec), which
 * classic environments and older prime-rl use: a DEALER sends `[request_id, payload]`; the payload
 * is msgpack of `{request_type: "run_rollout" | "run_group", input | group_inputs, client_config,
 * model, sampling_args, max_retries, state_columns}`; an empty payload cancels that request id; the
 * payload `b"ping"` is a health probe. Replies are `[request_id, msgpack({success, error, output |
 * outputs})]` with verifiers' `RolloutOutput` rows.
 */
import { z } from "zod";
import { WireMessage } from "./wire-messages.ts";

/** The health probe's payload. */
export const PING = new TextEncoder().encode("ping");

/** One endpoint of a v0 `ClientConfig.endpoint_configs`. */
const EndpointClientConfig = z.looseObject({
  api_key_var: z.string().default("PRIME_API_KEY"),
  api_base_url: z.string().default("https://api.pinference.ai/api/v1"),
  extra_headers: z.record(z.string(), z.string()).nullish(),
  timeout: z.number().nullish(),
  max_retries: z.number().int().nullish(),
});

/**
 * verifiers' legacy `ClientConfig`. With `endpoint_configs`, `client_idx` picks one (modulo their
 * count), as verifiers' `resolve_client_config` does; client types other than chat completions are
 * refused, since vf speaks chat completions.
 */
export const ClientConfigV0 = z.looseObject({
  client_idx: z.number().int().default(0),
  client_type: z.string().default("openai_chat_completions"),
  api_key_var: z.string().default("PRIME_API_KEY"),
  api_base_url: z.string().default("https://api.pinference.ai/api/v1"),
  endpoint_configs: z.array(EndpointClientConfig).nullish(),
  extra_headers: z.record(z.string(), z.string()).nullish(),
  timeout: z.number().nullish(),
  max_retries: z.number().int().nullish(),
});
export type ClientConfigV0 = z.infer<typeof ClientConfigV0>;

/** verifiers' `RolloutInput`: prompt and example_id required; answer, info (object or JSON string), task optional. */
export const RolloutInputV0 = z.looseObject({
  prompt: z.union([z.string(), z.array(WireMessage)]),
  example_id: z.number().int(),
  answer: z.string().nullish(),
  info: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  task: z.string().nullish(),
});
export type RolloutInputV0 = z.infer<typeof RolloutInputV0>;

const Common = {
  client_config: ClientConfigV0,
  model: z.string().min(1),
  sampling_args: z.record(z.string(), z.unknown()).nullish(),
  max_retries: z.number().int().min(0).default(0),
  state_columns: z.array(z.string()).nullish(),
};

export const RunRolloutRequest = z.object({
  request_type: z.literal("run_rollout"),
  input: RolloutInputV0,
  ...Common,
});
export type RunRolloutRequest = z.infer<typeof RunRolloutRequest>;

export const RunGroupRequest = z.object({
  request_type: z.literal("run_group"),
  group_inputs: z.array(RolloutInputV0).min(1),
  ...Common,
});
export type RunGroupRequest = z.infer<typeof RunGroupRequest>;

/** verifiers' error text for a cancelled v0 request. */
export const V0_CANCELLED_ERROR = "Request was cancelled";

/** A verifiers `RolloutOutput` row as sent (see rollout-output.ts). */
export type RolloutOutput = Record<string, unknown>;

/** What each v0 request type answers when it succeeds (a failure is v1-protocol.ts's `FailedReply`). */
export interface V0Replies {
  run_rollout: { success: true; error: null; output: RolloutOutput };
  run_group: { success: true; error: null; outputs: RolloutOutput[] };
  ping: { success: true; error: null };
}

/** verifiers' error text for a request type it does not know. */
export function unknownRequestTypeError(type: unknown): string {
  return `Unknown request type: ${String(type)}`;
}
