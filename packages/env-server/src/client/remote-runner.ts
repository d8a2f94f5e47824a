/**
 * Runs `generate`'s units in an env server instead of in this process (`vf eval --env-server`,
 * `vf train` with `[[env]] address`): a group is one v0 `run_group` request (scored together there),
 * a rollout scored alone one `run_rollout`; the RolloutOutput rows come back as vf's saved rows. A
 * request the server fails (a worker crashed, the server stopped) becomes an infrastructure error on
 * each of its rollouts, so the run goes on and a resumed run reruns them.
 */
import type { RolloutInput } from "@vf-rl/core";
import type { EndpointAddress } from "@vf-rl/core/client";
import { CancelledError } from "@vf-rl/core/errors";
import { RolloutRecord } from "@vf-rl/core/results";
import { fromRolloutOutput, TRAJECTORY_COLUMN } from "../wire/rollout-output.ts";
import { type EnvClient, EnvServerRequestError } from "./env-client.ts";

/** How the server's rollouts are run. */
export interface RemoteRunnerOptions {
  client: EnvClient;
  /** The model endpoints (replicas, used in turn per unit) the server's rollouts call. */
  endpoints: EndpointAddress[];
  model: string;
  sampling: Record<string, unknown>;
  /** Ask every model call for vLLM's token ids and logprobs (training). */
  wantTokens?: boolean;
  maxRetries?: number;
  stateColumns?: string[];
  /** Score each rollout alone (`run_rollout`) instead of each group together. */
  independent?: boolean;
}

/** A `runUnit` for core's `generate` (and `evaluate`). */
export function remoteRunner(
  options: RemoteRunnerOptions,
): (inputs: RolloutInput[], context: { signal: AbortSignal | undefined }) => Promise<RolloutRecord[]> {
  const columns = [...(options.stateColumns ?? []), TRAJECTORY_COLUMN];
  let turn = 0;
  return async (inputs, { signal }) => {
    const endpoint = options.endpoints[turn++ % options.endpoints.length]!;
    // verifiers' client types are vf's API names, with the token variant of chat completions.
    const chat = endpoint.type === "openai_chat_completions";
    const clientConfig = {
      client_type: chat && options.wantTokens ? "openai_chat_completions_token" : endpoint.type,
      api_base_url: endpoint.baseUrl,
      api_key_var: endpoint.apiKeyVar ?? "",
      extra_headers: endpoint.headers,
    };
    const rows = inputs.map((input) => ({
      prompt: input.prompt,
      example_id: input.exampleId,
      answer: input.answer,
      info: input.info,
      task: input.task,
    }));
    const common = {
      clientConfig,
      model: options.model,
      samplingArgs: options.sampling,
      maxRetries: options.maxRetries ?? 0,
      stateColumns: columns,
      signal,
    };
    try {
      const outputs =
        options.independent && rows.length === 1
          ? [await options.client.runRollout({ ...common, input: rows[0]! })]
          : await options.client.runGroup({ ...common, inputs: rows });
      return outputs.map((output, i) => ({
        ...fromRolloutOutput(output, options.stateColumns ?? []),
        example_id: inputs[i]!.exampleId,
        rollout_index: inputs[i]!.rolloutIndex,
      }));
    } catch (error) {
      if (error instanceof CancelledError || !(error instanceof EnvServerRequestError)) throw error;
      return inputs.map((input) =>
        RolloutRecord.parse({
          example_id: input.exampleId,
          rollout_index: input.rolloutIndex,
          prompt: input.prompt,
          completion: [],
          answer: input.answer,
          info: input.info,
          task: input.task,
          reward: 0,
          is_completed: false,
          error: {
            error: "InfraError",
            message: `the env server at ${error.address} failed the request: ${error.message}`,
          },
        }),
      );
    }
  };
}
